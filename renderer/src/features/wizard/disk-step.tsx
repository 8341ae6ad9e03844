// Step 1: the disk to erase. Whole disks as the core lists them — model, size, bus, path, and
// each partition with its file system, label, size and whether it is mounted. Disks the wizard
// may not erase are shown greyed with the core's reason (the system disk: "holds the system
// (/)"); internal disks appear only behind the advanced switch, with a warning when picked; a
// disk with a mounted partition can be looked at but not taken further until it is unmounted.
import { useId } from 'react';
import type { WizardDisk } from '@model/wizard/types';
import { useWizardStore } from './store';
import { busText, diskSizeText, partitionText } from './wizard-model';

/** Whether the radio of a disk can be picked at all. */
export const selectable = (d: WizardDisk, includeInternal: boolean): boolean => d.offered && !d.system && (!d.internal || includeInternal);

function DiskRow({ disk, name, checked, includeInternal }: { disk: WizardDisk; name: string; checked: boolean; includeInternal: boolean }) {
  const selectDisk = useWizardStore((s) => s.selectDisk);
  const id = useId();
  const can = selectable(disk, includeInternal);
  const reason = disk.system ? (disk.reason ?? 'holds the system') : !disk.offered ? (disk.reason ?? 'cannot be erased') : null;
  return (
    <div
      className={`wizard-disk${can ? '' : ' wizard-disk--off'}${checked ? ' wizard-disk--picked' : ''}`}
      data-testid="wizard-disk"
      data-path={disk.path}
    >
      <input
        id={id}
        type="radio"
        name={name}
        className="wizard-disk__radio"
        checked={checked}
        disabled={!can}
        onChange={() => selectDisk(disk.path)}
        data-testid="wizard-disk-select"
        aria-describedby={`${id}-meta`}
      />
      <label htmlFor={id} className="wizard-disk__body">
        <span className="wizard-disk__head">
          <span className="wizard-disk__name">{disk.name}</span>
          <span className="pill">{diskSizeText(disk.sizeBytes)}</span>
          <span className="pill pill--bus">{busText(disk.bus)}</span>
          {disk.internal && <span className="pill pill--warn">internal</span>}
          {disk.removable && <span className="pill">removable</span>}
        </span>
        <span className="wizard-disk__meta" id={`${id}-meta`}>
          {[disk.model && disk.model !== disk.name ? disk.model : null, disk.path, disk.serial ? `serial ${disk.serial}` : null]
            .filter(Boolean)
            .join(' · ')}
          {disk.backingFile && <span className="wizard-disk__image"> · disk image {disk.backingFile}</span>}
        </span>
        {reason && <span className="wizard-disk__reason">Not offered: {reason}</span>}
        {disk.partitions.length > 0 ? (
          <ul className="wizard-parts">
            {disk.partitions.map((p) => (
              <li key={p.path}>
                {partitionText(p)}
                {p.mountpoints.length > 0 &&
                  (can ? (
                    <span className="wizard-parts__busy"> · mounted at {p.mountpoints.join(', ')} — in use: unmount it first</span>
                  ) : (
                    <span> · mounted at {p.mountpoints.join(', ')}</span>
                  ))}
              </li>
            ))}
          </ul>
        ) : (
          <span className="wizard-disk__meta">No partitions</span>
        )}
      </label>
    </div>
  );
}

export function DiskStep() {
  const disks = useWizardStore((s) => s.disks);
  const loading = useWizardStore((s) => s.disksLoading);
  const error = useWizardStore((s) => s.disksError);
  const includeInternal = useWizardStore((s) => s.includeInternal);
  const diskPath = useWizardStore((s) => s.diskPath);
  const loadDisks = useWizardStore((s) => s.loadDisks);
  const setIncludeInternal = useWizardStore((s) => s.setIncludeInternal);
  const name = useId();
  const picked = disks?.find((d) => d.path === diskPath);
  const none = disks !== null && !disks.some((d) => selectable(d, includeInternal));
  const canErase = useWizardStore((s) => s.canErase);

  return (
    <div className="wizard-step-body">
      {canErase === false && (
        <div className="warning-box wizard-erase-off" role="note" data-testid="wizard-erase-off">
          <p>
            <strong>This page cannot erase disks.</strong> Browser mode does not erase unless it was started to: anyone who can open this
            page could otherwise wipe a disk.
          </p>
          <p>
            To compare formats, stop DiskDial (Ctrl-C in its terminal) and start it again with <code>diskdial serve --allow-erase</code>, or
            use the desktop app, which asks you itself before each erase. You can still look at the disks and plan here.
          </p>
        </div>
      )}
      <div className="wizard-toolbar">
        <h3 className="wizard-h3" id={`${name}-h`}>
          Pick the disk to erase
        </h3>
        <label className="toggle">
          <input
            type="checkbox"
            checked={includeInternal}
            onChange={(e) => void setIncludeInternal(e.target.checked)}
            data-testid="wizard-internal"
          />{' '}
          Show internal disks (advanced)
        </label>
        <button type="button" className="button" onClick={() => void loadDisks()} disabled={loading} data-testid="wizard-refresh">
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <p className="wizard-hint">
        Whole disks only. The disk holding the system, and any disk with a system folder mounted, is never offered.
      </p>
      {error && (
        <p className="panel-error" role="alert" data-testid="wizard-error">
          {error}
        </p>
      )}
      {disks === null ? (
        <p className="empty">{loading ? 'Looking for disks…' : ''}</p>
      ) : (
        <>
          {disks.length > 0 && (
            // A radiogroup, not a list: its rows are radios (a <li> outside a list role is invalid).
            <div className="wizard-disks" role="radiogroup" aria-labelledby={`${name}-h`}>
              {disks.map((d) => (
                <DiskRow key={d.path} disk={d} name={name} checked={d.path === diskPath} includeInternal={includeInternal} />
              ))}
            </div>
          )}
          {none && (
            <p className="empty wizard-empty" data-testid="wizard-disks-empty">
              No external disk found. Connect one, or attach a disk image (<code>losetup -fP image.img</code>) and refresh.
            </p>
          )}
        </>
      )}
      {picked?.internal && (
        <p className="warning-box" role="alert" data-testid="wizard-internal-warning">
          {picked.name} is an internal disk. Be sure it holds nothing you need: every partition on it will be erased.
        </p>
      )}
    </div>
  );
}
