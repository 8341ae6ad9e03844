// A compare cell's verdict under its figure, for History's compare table and the report table:
// the mark the exports print (model/verdict/compare-words.ts), coloured by outcome — better,
// worse, a change without a direction, no difference (≈), inconclusive (?) — with the change,
// its interval and any reason in the title and for screen readers.
import type { CompareCell } from '@model/report/compare';
import { cellMark, changeText, reasonTexts, flagTexts, VERDICT_WORDS } from '@model/verdict/compare-words';

const ARROW: Partial<Record<CompareCell['verdict'], string>> = { better: '▲ ', worse: '▼ ' };

export function CompareDelta({ cell, showBaseline = false }: { cell: CompareCell; showBaseline?: boolean }) {
  if (cell.verdict === 'baseline') return showBaseline ? <span className="delta delta--baseline">baseline</span> : null;
  const claim = cell.claim;
  if (cell.verdict === 'n/a' || !claim) return <span className="delta delta--na">n/a</span>;
  const mark = cellMark(cell.verdict, claim).replace(/^\((.*)\)$/, '$1');
  const detail = [changeText(claim), ...reasonTexts(claim), ...flagTexts(claim)].join('; ');
  const words = `${VERDICT_WORDS[cell.verdict]} — ${detail}`;
  return (
    <span className={`delta delta--${cell.verdict}`} title={words}>
      <span aria-hidden="true">
        {ARROW[cell.verdict] ?? ''}
        {mark}
      </span>
      <span className="sr-only"> {words}</span>
    </span>
  );
}
