// A card's header as every screen writes it: the title (an h2 the card is labelled by), the
// subtitle under it, and anything else (buttons, toggles) after them.
import type { ReactNode } from 'react';

export function CardHeader(p: { titleId: string; title: ReactNode; subtitle: ReactNode; subtitleId?: string; children?: ReactNode }) {
  return (
    <header className="card__header card__header--wrap">
      <div>
        <h2 id={p.titleId} className="card__title">
          {p.title}
        </h2>
        <p className="card__subtitle" id={p.subtitleId}>
          {p.subtitle}
        </p>
      </div>
      {p.children}
    </header>
  );
}
