// The Hash screen's settings: the source (a file the user names or picks, or a test file written
// on the selected target and removed afterwards), the algorithm, and an optional digest or
// checksum file to verify against. Every control has a visible label; errors are spelled out
// under the field they belong to. Locked while the hash test runs.
import { useId, useRef, type ReactNode, type Ref } from 'react';
import { isBrowserMode } from '../../lib/bridge';
import { ChipGroup, FieldError, LabelledField } from '../../components/fields';
import { selectSelectedTarget, useTargetsStore } from '../../lib/targets-store';
import { ALGOS, algoLabel, DIGEST_HEX, formErrors, isDigest, TEST_FILE_SIZES, verifyValue, type SourceKind } from './settings';
import { useHashStore } from './store';
import { formatBytesShort } from '@model/units';

const SOURCES: ReadonlyArray<{ value: SourceKind; label: string; detail: string }> = [
  { value: 'file', label: 'A file', detail: 'Hash a file you name; it is only read, never changed.' },
  { value: 'generate', label: 'A test file', detail: 'DiskDial writes a test file on the selected drive, hashes it, then removes it.' },
];

/** A labelled text field with an optional hint and error under it. */
function TextField({
  label,
  value,
  onChange,
  placeholder,
  error,
  hint,
  testId,
  inputRef,
  children,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  error?: string | undefined;
  hint?: ReactNode;
  testId: string;
  inputRef?: Ref<HTMLInputElement>;
  /** Beside the input (a button). */
  children?: ReactNode;
}) {
  const id = useId();
  const hintId = useId();
  const errId = useId();
  const describedBy = [hint ? hintId : null, error ? errId : null].filter(Boolean).join(' ') || undefined;
  return (
    <LabelledField id={id} label={label} wide errId={errId} error={error}>
      <span className="path-row">
        <input
          id={id}
          ref={inputRef}
          className={`text-input path-row__input${error ? ' text-input--invalid' : ''}`}
          type="text"
          value={value}
          placeholder={placeholder}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          data-testid={testId}
          onChange={(e) => onChange(e.target.value)}
        />
        {children}
      </span>
      {hint && (
        <span id={hintId} className="field__note">
          {hint}
        </span>
      )}
    </LabelledField>
  );
}

function FileSource() {
  const path = useHashStore((s) => s.form.path);
  const pathBytes = useHashStore((s) => s.form.pathBytes);
  const pickNote = useHashStore((s) => s.pickNote);
  const error = useHashStore((s) => formErrors(s.form).path);
  const setForm = useHashStore((s) => s.setForm);
  const chooseFile = useHashStore((s) => s.chooseFile);
  const inputRef = useRef<HTMLInputElement>(null);

  const choose = async () => {
    await chooseFile();
    // No picker here: the path field is where to go next.
    if (useHashStore.getState().pickNote) inputRef.current?.focus();
  };

  return (
    <TextField
      label="File"
      value={path}
      onChange={(v) => setForm({ path: v })}
      placeholder="/path/to/the/file"
      error={error}
      testId="hash-path"
      inputRef={inputRef}
      hint={
        <>
          {pickNote && (
            <span className="field__note-line field__note-line--warn" data-testid="hash-pick-note">
              {pickNote}
            </span>
          )}
          <span className="field__note-line">
            {pathBytes !== null ? `${formatBytesShort(pathBytes)} · ` : ''}Only read, never changed. A large file (several GB) gives
            steadier figures.
          </span>
        </>
      }
    >
      {/* Browser mode has no file picker for the server's disk: the typed path is the way there. */}
      {!isBrowserMode() && (
        <button type="button" className="button" data-testid="hash-choose" onClick={() => void choose()}>
          Choose…<span className="sr-only"> a file to hash</span>
        </button>
      )}
    </TextField>
  );
}

function TestFileSource() {
  const size = useHashStore((s) => s.form.size);
  const customSize = useHashStore((s) => s.form.customSize);
  const error = useHashStore((s) => formErrors(s.form).customSize);
  const setForm = useHashStore((s) => s.setForm);
  const target = useTargetsStore(selectSelectedTarget);
  const errId = useId();
  const choices = [
    ...TEST_FILE_SIZES.map((b) => ({ value: b as number | 'custom', label: `${b / 1e9} GB` })),
    { value: 'custom' as const, label: 'Custom' },
  ];
  return (
    <span className="field field--wide">
      <ChipGroup
        label="Test file size"
        value={size}
        choices={choices}
        onChange={(v) => setForm({ size: v })}
        testIdPrefix="hash-size"
        after={
          size === 'custom' && (
            <span className="custom-size">
              <input
                className={`text-input text-input--size${error ? ' text-input--invalid' : ''}`}
                aria-label="Custom test file size"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? errId : undefined}
                placeholder="e.g. 10 GB"
                value={customSize}
                data-testid="hash-size-input"
                onChange={(e) => setForm({ customSize: e.target.value })}
              />
            </span>
          )
        }
      />
      <FieldError id={errId} error={error} />
      <span className="field__note" data-testid="hash-target-note">
        {target ? `Written on ${target.name} (${target.path}), then removed.` : 'Choose a drive or folder above to write it on.'}
      </span>
    </span>
  );
}

function VerifyField() {
  const verify = useHashStore((s) => s.form.verify);
  const algo = useHashStore((s) => s.form.algo);
  const error = useHashStore((s) => formErrors(s.form).verify);
  const setForm = useHashStore((s) => s.setForm);
  const v = verifyValue(verify);
  const hint =
    error || v === undefined
      ? undefined
      : isDigest(v)
        ? `The file’s ${algoLabel(algo)} will be compared with this digest (${DIGEST_HEX[algo]} hex digits).`
        : 'A checksum file: the line naming this file is used.';
  return (
    <TextField
      label="Verify (optional)"
      value={verify}
      onChange={(x) => setForm({ verify: x })}
      placeholder="paste the expected digest, or the path of a .sha256 / SHA256SUMS file"
      error={error}
      hint={hint}
      testId="hash-verify-input"
    />
  );
}

export function HashSettingsForm({ disabled }: { disabled: boolean }) {
  const source = useHashStore((s) => s.form.source);
  const algo = useHashStore((s) => s.form.algo);
  const setForm = useHashStore((s) => s.setForm);
  return (
    <fieldset className="hash-settings" disabled={disabled}>
      <legend className="sr-only">Hash test settings</legend>
      <div className="hash-settings__row">
        <ChipGroup
          label="Source"
          value={source}
          choices={SOURCES}
          onChange={(v) => setForm({ source: v })}
          testIdPrefix="hash-source"
          variant="segmented"
        />
        <ChipGroup
          label="Algorithm"
          value={algo}
          choices={ALGOS}
          onChange={(v) => setForm({ algo: v })}
          testIdPrefix="hash-algo"
          variant="segmented"
        />
      </div>
      {source === 'file' ? <FileSource /> : <TestFileSource />}
      <VerifyField />
    </fieldset>
  );
}
