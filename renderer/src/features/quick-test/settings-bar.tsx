// Quick Test settings: stress size (Blackmagic's 1/2/3/5 GB or a custom size), mode
// (continuous, or N write+read runs) and the stop rule (end each step once settled). Locked while a
// test runs.
import { useEffect, useId, useState } from 'react';
import { sizeLimitsText } from '@model/fit';
import { parseTypedSize } from '@model/units';
import { Radio } from '../../components/fields';
import { onRadioGroupKeyDown, radioTabIndex } from '../../lib/radio-group';

import { isValidSize, MAX_RUNS, SIZE_PRESETS, useQuickTestStore } from './store';

/** Why a typed custom size cannot be used, or null (empty counts as nothing typed yet). */
export function sizeTextError(text: string): string | null {
  if (text.trim() === '') return null;
  const b = parseTypedSize(text);
  if (b === null) return 'Type a size like 750 MB or 10 GB.';
  return isValidSize(b) ? null : sizeLimitsText(text);
}

const MODES = ['continuous', 'runs'] as const;

export function SettingsBar({ disabled }: { disabled: boolean }) {
  const sizeBytes = useQuickTestStore((s) => s.sizeBytes);
  const mode = useQuickTestStore((s) => s.mode);
  const runs = useQuickTestStore((s) => s.runs);
  const setSize = useQuickTestStore((s) => s.setSize);
  const setSizeError = useQuickTestStore((s) => s.setSizeError);
  const setMode = useQuickTestStore((s) => s.setMode);
  const setRuns = useQuickTestStore((s) => s.setRuns);
  const settle = useQuickTestStore((s) => s.settle);
  const setSettle = useQuickTestStore((s) => s.setSettle);
  const isPreset = (SIZE_PRESETS as readonly number[]).includes(sizeBytes);
  const [customOpen, setCustomOpen] = useState(!isPreset);
  const [customText, setCustomText] = useState(isPreset ? '' : `${sizeBytes / 1e9}`);
  const [runsText, setRunsText] = useState(String(runs));
  const errId = useId();
  const customError = sizeTextError(customText);

  // A size set from outside (the "Use 35 MB" offer when a test does not fit) shows as Custom.
  useEffect(() => {
    if ((SIZE_PRESETS as readonly number[]).includes(sizeBytes) || parseTypedSize(customText) === sizeBytes) return;
    setCustomOpen(true);
    setCustomText(sizeBytes >= 1e9 ? `${sizeBytes / 1e9} GB` : `${Math.round(sizeBytes / 1e6)} MB`);
  }, [sizeBytes]);

  // Radio index of the size: a preset, or the last one, Custom.
  const sizeIndex = customOpen ? SIZE_PRESETS.length : SIZE_PRESETS.findIndex((b) => b === sizeBytes);
  const chooseSize = (i: number) => {
    if (i >= SIZE_PRESETS.length) {
      setCustomOpen(true);
      // An empty or wrong field must not silently run the last preset.
      if (customText.trim() === '' || customError) setSizeError(customError ?? 'Type a custom size.');
      return;
    }
    setCustomOpen(false);
    setSize(SIZE_PRESETS[i]!);
    setSizeError(null);
  };
  const modeIndex = MODES.indexOf(mode);

  const applyCustom = (text: string) => {
    setCustomText(text);
    const b = parseTypedSize(text);
    if (b !== null && isValidSize(b)) setSize(b);
    else setSizeError(text.trim() === '' ? 'Type a custom size.' : sizeTextError(text));
  };

  return (
    <div className="settings-bar">
      <fieldset className="settings-group" disabled={disabled}>
        <legend className="settings-label">Stress size</legend>
        <div className="chips" role="radiogroup" aria-label="Stress size" onKeyDown={(e) => onRadioGroupKeyDown(e, chooseSize)}>
          {SIZE_PRESETS.map((b, i) => (
            <Radio key={b} checked={sizeIndex === i} tabIndex={radioTabIndex(i, sizeIndex)} className="chip" onClick={() => chooseSize(i)}>
              {b / 1e9} GB
            </Radio>
          ))}
          <Radio
            checked={customOpen}
            tabIndex={radioTabIndex(SIZE_PRESETS.length, sizeIndex)}
            className="chip"
            onClick={() => chooseSize(SIZE_PRESETS.length)}
          >
            Custom
          </Radio>
          {customOpen && (
            <span className="custom-size">
              <input
                className={`text-input text-input--size${customError ? ' text-input--invalid' : ''}`}
                aria-label="Custom stress size"
                aria-invalid={customError !== null}
                aria-describedby={customError ? errId : undefined}
                placeholder="e.g. 10 GB"
                value={customText}
                onChange={(e) => applyCustom(e.target.value)}
              />
              {customError && (
                <span id={errId} className="field-error" role="alert">
                  {customError}
                </span>
              )}
            </span>
          )}
        </div>
      </fieldset>

      <fieldset className="settings-group" disabled={disabled}>
        <legend className="settings-label">Mode</legend>
        <div className="segmented" role="radiogroup" aria-label="Mode" onKeyDown={(e) => onRadioGroupKeyDown(e, (i) => setMode(MODES[i]!))}>
          {MODES.map((m, i) => (
            <Radio key={m} checked={modeIndex === i} tabIndex={radioTabIndex(i, modeIndex)} className="segment" onClick={() => setMode(m)}>
              {m === 'continuous' ? 'Continuous' : 'Runs'}
            </Radio>
          ))}
        </div>
        {mode === 'runs' && (
          <input
            className="text-input text-input--runs"
            type="number"
            min={1}
            max={MAX_RUNS}
            aria-label="Number of runs"
            value={runsText}
            onChange={(e) => {
              setRunsText(e.target.value);
              setRuns(Number(e.target.value));
            }}
            onBlur={() => setRunsText(String(useQuickTestStore.getState().runs))}
          />
        )}
        <label className="settle-option" title="Each step ends once its 95 % interval is within ± 3 %, after at least 1 s">
          <input type="checkbox" checked={settle} onChange={(e) => setSettle(e.target.checked)} data-testid="quick-settle" /> Stop when
          settled (± 3 %)
        </label>
      </fieldset>
    </div>
  );
}
