// A WAI-ARIA radio group on buttons: one Tab stop (the checked radio, else the first), and the
// arrow keys, Home and End move the choice and the focus together, as native radios do.
import type { KeyboardEvent } from 'react';

/** tabIndex for radio `index` of a group whose checked radio is `checked` (−1: none). */
export function radioTabIndex(index: number, checked: number): 0 | -1 {
  return index === (checked < 0 ? 0 : checked) ? 0 : -1;
}

/** onKeyDown for the element with role="radiogroup": picks and focuses the next radio. */
export function onRadioGroupKeyDown(e: KeyboardEvent<HTMLElement>, choose: (index: number) => void): void {
  const radios = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="radio"]')];
  const at = radios.indexOf(e.target as HTMLElement);
  if (at < 0 || radios.length === 0) return;
  const n = radios.length;
  const next =
    e.key === 'ArrowRight' || e.key === 'ArrowDown'
      ? (at + 1) % n
      : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
        ? (at - 1 + n) % n
        : e.key === 'Home'
          ? 0
          : e.key === 'End'
            ? n - 1
            : -1;
  if (next < 0) return;
  e.preventDefault();
  choose(next);
  radios[next]!.focus();
}
