// The target picker in the header: a button showing the selected drive, opening a list of
// mounted volumes (name, mount point, file system, free of total, model, bus, removable or
// internal, read-only). Volumes a test cannot run on stay visible, disabled, with the reason.
// "Choose folder…" uses the OS picker in Electron; browser mode has none, so it offers a path
// field instead.
import { useEffect, useId, useRef, useState } from 'react';
import { useKeepInWindow } from '../lib/keep-in-window';
import { linkText, linkTitle, targetLink } from '../lib/target-link';
import { selectSelectedTarget, useTargetsStore } from '../lib/targets-store';
import type { TargetInfo } from '@model/history';
import { fitPlan } from '@model/presets';
import { runKind } from '@model/kinds/registry';
import { formatBytes, formatBytesShort } from '@model/units';
import { sizeLabel } from '../lib/sizes';

const BUS_LABEL: Record<string, string> = {
  usb: 'USB',
  nvme: 'NVMe',
  sata: 'SATA',
  ata: 'SATA',
  thunderbolt: 'Thunderbolt',
  virtio: 'virtio',
  scsi: 'SCSI',
  mmc: 'SD/MMC',
  sd: 'SD',
  loop: 'loop',
  network: 'network',
};

export function busLabel(bus: string): string {
  return BUS_LABEL[bus.toLowerCase()] ?? (bus && bus !== 'unknown' ? bus : 'unknown bus');
}

/** A loop device is a disk image on another disk: neither internal nor removable. */
const isImage = (t: TargetInfo): boolean => t.device.bus.toLowerCase() === 'loop';

function Badges({ t }: { t: TargetInfo }) {
  return (
    <span className="badges">
      <span className={`pill pill--bus pill--${t.device.bus.toLowerCase()}`}>{isImage(t) ? 'disk image' : busLabel(t.device.bus)}</span>
      {t.device.removable !== undefined && !isImage(t) && <span className="pill">{t.device.removable ? 'removable' : 'internal'}</span>}
      {t.readOnly && <span className="pill pill--warn">read-only</span>}
    </span>
  );
}

/** A volume too small for the Quick Test's default size says so in the list, with what fits. */
function SmallNote({ t }: { t: TargetInfo }) {
  const size = runKind('quick').defaultSize ?? 1e9;
  const fit = fitPlan('quick', { size }, t);
  if (fit.fits) return null;
  return (
    <span className="target-option__reason" data-testid="target-small">
      Too small for a {sizeLabel(size)} test{fit.largestBytes > 0 ? `: up to ${formatBytes(fit.largestBytes)} fits` : ''}
    </span>
  );
}

/** The connection and its ceiling, e.g. "USB 3.2 Gen 2 · ≤ 1,212 MB/s (typ. 900–1,050)". */
function LinkLine({ t, className }: { t: TargetInfo; className: string }) {
  const link = targetLink(t);
  if (!link) return null;
  return (
    <span className={className} title={linkTitle(link)} data-testid="target-link">
      {linkText(link)}
    </span>
  );
}

function DriveIcon() {
  return (
    <svg className="drive-icon" viewBox="0 0 24 24" aria-hidden="true">
      <rect x="3" y="6" width="18" height="12" rx="2.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <circle cx="17" cy="12" r="1.3" fill="currentColor" />
      <path d="M6 12h6" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

export function TargetPicker({ disabled = false }: { disabled?: boolean }) {
  const targets = useTargetsStore((s) => s.targets);
  const selected = useTargetsStore(selectSelectedTarget);
  const loading = useTargetsStore((s) => s.loading);
  const error = useTargetsStore((s) => s.error);
  const select = useTargetsStore((s) => s.select);
  const load = useTargetsStore((s) => s.load);
  const chooseFolder = useTargetsStore((s) => s.chooseFolder);
  const useFolder = useTargetsStore((s) => s.useFolder);

  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [pathMode, setPathMode] = useState(false);
  const [pathText, setPathText] = useState('');
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const popoverRef = useRef<HTMLDivElement>(null);
  useKeepInWindow(popoverRef, open);
  const uid = useId().replace(/:/g, '');

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const openList = () => {
    const i = targets.findIndex((t) => t.path === selected?.path);
    setActive(Math.max(0, i));
    setOpen(true);
    // Focus the list once it is in the DOM so arrow keys work at once.
    requestAnimationFrame(() => listRef.current?.focus());
  };
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const pick = (t: TargetInfo | undefined) => {
    if (!t || !t.startable) return;
    select(t.path);
    close();
  };

  const onListKey = (e: React.KeyboardEvent) => {
    const n = targets.length;
    if (e.key === 'ArrowDown') setActive((a) => Math.min(n - 1, a + 1));
    else if (e.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
    else if (e.key === 'Home') setActive(0);
    else if (e.key === 'End') setActive(n - 1);
    else if (e.key === 'Enter' || e.key === ' ') pick(targets[active]);
    else if (e.key === 'Escape') close();
    else return;
    e.preventDefault();
  };

  const onChoose = async () => {
    const outcome = await chooseFolder();
    if (outcome === 'unsupported') setPathMode(true);
    else if (outcome === 'chosen') close();
  };

  const onUsePath = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!pathText.trim()) return;
    if (await useFolder(pathText)) {
      setPathMode(false);
      close();
    }
  };

  return (
    <div className="target-picker" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="target-button"
        aria-haspopup="listbox"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => (open ? close(false) : openList())}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            openList();
          }
        }}
      >
        <DriveIcon />
        {/* The visible text is the button's name, with words for screen readers around it (not
            an aria-label: what is seen must be part of what is heard, WCAG 2.5.3). */}
        {selected ? (
          <span className="target-button__text">
            <span className="target-button__name">
              <span className="sr-only">Target: </span>
              {selected.name}
            </span>{' '}
            <span className="target-button__meta">
              {targetLink(selected) ? <LinkLine t={selected} className="target-button__link" /> : busLabel(selected.device.bus)} ·{' '}
              {formatBytesShort(selected.freeBytes)} free of {formatBytesShort(selected.totalBytes)}
            </span>
            <span className="sr-only">, at {selected.mountPoint}. Change target</span>
          </span>
        ) : (
          <span className="target-button__text">
            <span className="target-button__name">{loading ? 'Looking for drives…' : 'Choose a drive'}</span>
          </span>
        )}
        <span className="chevron" aria-hidden="true">
          ▾
        </span>
      </button>

      {open && (
        <div className="target-popover" ref={popoverRef}>
          <ul
            ref={listRef}
            className="target-list"
            role="listbox"
            aria-label="Targets"
            tabIndex={0}
            aria-activedescendant={targets[active] ? `${uid}-opt-${active}` : undefined}
            onKeyDown={onListKey}
          >
            {targets.length === 0 && <li className="target-list__empty">{loading ? 'Looking for drives…' : 'No drives found.'}</li>}
            {targets.map((t, i) => (
              <li
                key={t.path}
                id={`${uid}-opt-${i}`}
                role="option"
                aria-selected={t.path === selected?.path}
                aria-disabled={!t.startable}
                className={`target-option${i === active ? ' target-option--active' : ''}${t.startable ? '' : ' target-option--disabled'}`}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(t)}
              >
                <span className="target-option__row">
                  <span className="target-option__name">{t.name}</span>
                  <Badges t={t} />
                </span>
                <span className="target-option__meta">
                  {t.mountPoint} · {t.fs} · {formatBytesShort(t.freeBytes)} free of {formatBytesShort(t.totalBytes)}
                  {t.device.model ? ` · ${t.device.model}` : ''}
                </span>
                <LinkLine t={t} className="target-option__link" />
                {!t.startable && t.reason && <span className="target-option__reason">{t.reason}</span>}
                {t.startable && <SmallNote t={t} />}
              </li>
            ))}
          </ul>
          <div className="target-popover__footer">
            <button type="button" className="link-button" onClick={() => void onChoose()}>
              Choose folder…
            </button>
            <button type="button" className="link-button" onClick={() => void load()}>
              Rescan
            </button>
          </div>
          {pathMode && (
            <form className="path-form" onSubmit={(e) => void onUsePath(e)}>
              <label className="settings-label" htmlFor={`${uid}-path`}>
                Folder path on the machine running DiskDial
              </label>
              <div className="path-form__row">
                <input
                  id={`${uid}-path`}
                  className="text-input"
                  placeholder="/media/me/Footage"
                  value={pathText}
                  autoFocus
                  onChange={(e) => setPathText(e.target.value)}
                />
                <button type="submit" className="button">
                  Use
                </button>
              </div>
            </form>
          )}
          {error && (
            <p className="field-error" role="alert">
              {error.message}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
