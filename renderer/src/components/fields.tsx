// Small labelled controls for the settings forms (Detailed, Hash, the wizard): a select, a number
// field that keeps what was typed (so a half-typed or out-of-range value shows as such, with its
// error) and a row of radio chips (or a segmented control). Every control has a visible label.
import { useId, useState, type ReactNode } from 'react';

export interface Choice<T extends string | number> {
  value: T;
  label: string;
  /** Hover text and an accessible description. */
  detail?: string;
}

/** What a field says is wrong, under it; `id` is what its input's aria-describedby names. */
export function FieldError({ id, error }: { id: string; error?: string | null | undefined }) {
  return error ? (
    <span id={id} className="field-error" role="alert">
      {error}
    </span>
  ) : null;
}

/** A field's frame: its visible label for the control `id`, what it holds, and its error under it. */
export function LabelledField({
  id,
  label,
  wide,
  errId = '',
  error,
  children,
}: {
  id: string;
  label: string;
  /** Spans the form's width (a path, a digest). */
  wide?: boolean;
  errId?: string;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <span className={wide ? 'field field--wide' : 'field'}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children}
      <FieldError id={errId} error={error} />
    </span>
  );
}

export function SelectField<T extends string | number>({
  label,
  value,
  choices,
  onChange,
  testId,
}: {
  label: string;
  value: T;
  choices: ReadonlyArray<Choice<T>>;
  onChange(value: T): void;
  testId?: string;
}) {
  const id = useId();
  return (
    <LabelledField id={id} label={label}>
      <select
        id={id}
        className="select"
        value={String(value)}
        data-testid={testId}
        onChange={(e) => {
          const c = choices.find((x) => String(x.value) === e.target.value);
          if (c) onChange(c.value);
        }}
      >
        {choices.map((c) => (
          <option key={String(c.value)} value={String(c.value)}>
            {c.label}
          </option>
        ))}
      </select>
    </LabelledField>
  );
}

export function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  step = 1,
  unit,
  error,
  testId,
}: {
  label: string;
  value: number;
  /** NaN when the field is empty or not a number. */
  onChange(value: number): void;
  min: number;
  max: number;
  /** 'any' allows decimals. */
  step?: number | 'any';
  unit?: string;
  error?: string | undefined;
  testId?: string;
}) {
  const id = useId();
  const errId = useId();
  const [text, setText] = useState(Number.isFinite(value) ? String(value) : '');
  // The store changed the value (a reset): show it, unless the text already says it.
  const [shown, setShown] = useState(value);
  if (!Object.is(shown, value)) {
    setShown(value);
    if (Number(text) !== value && Number.isFinite(value)) setText(String(value));
  }
  return (
    <LabelledField id={id} label={label} errId={errId} error={error}>
      <span className="field__input">
        <input
          id={id}
          className={`text-input text-input--num${error ? ' text-input--invalid' : ''}`}
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={step}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errId : undefined}
          data-testid={testId}
          onChange={(e) => {
            setText(e.target.value);
            onChange(e.target.value.trim() === '' ? Number.NaN : Number(e.target.value));
          }}
        />
        {unit && <span className="field__unit">{unit}</span>}
      </span>
    </LabelledField>
  );
}

/** One choice of a radio group drawn as a chip or a segment. `tabIndex` carries the group's roving
 *  Tab stop where the group handles arrow keys (lib/radio-group.ts). */
export function Radio({
  checked,
  className,
  onClick,
  tabIndex,
  title,
  testId,
  children,
}: {
  checked: boolean;
  className: string;
  onClick(): void;
  tabIndex?: 0 | -1;
  title?: string | undefined;
  testId?: string | undefined;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      role="radio"
      aria-checked={checked}
      tabIndex={tabIndex}
      className={className}
      title={title}
      data-testid={testId}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

export function ChipGroup<T extends string | number>({
  label,
  value,
  choices,
  onChange,
  testIdPrefix,
  after,
  variant = 'chips',
}: {
  label: string;
  value: T;
  choices: ReadonlyArray<Choice<T>>;
  onChange(value: T): void;
  testIdPrefix?: string;
  /** Shown after the chips (a hint for the chosen one). */
  after?: ReactNode;
  /** 'segmented': the choices joined into one control (a few exclusive modes). */
  variant?: 'chips' | 'segmented';
}) {
  const labelId = useId();
  const segmented = variant === 'segmented';
  return (
    <span className="field">
      <span className="field__label" id={labelId}>
        {label}
      </span>
      <span className={segmented ? 'segmented' : 'chips'} role="radiogroup" aria-labelledby={labelId}>
        {choices.map((c) => (
          <Radio
            key={String(c.value)}
            checked={c.value === value}
            className={segmented ? 'segment' : 'chip'}
            title={c.detail}
            testId={testIdPrefix ? `${testIdPrefix}-${c.value}` : undefined}
            onClick={() => onChange(c.value)}
          >
            {c.label}
          </Radio>
        ))}
        {after}
      </span>
    </span>
  );
}
