// CrystalDiskMark's unit switch for the grid: MB/s, GB/s, IOPS, or µs (mean latency big).
import { CDM_UNITS } from '../../lib/figure-format';
import { useDetailedStore } from './store';

export function UnitToggle() {
  const unit = useDetailedStore((s) => s.unit);
  const setUnit = useDetailedStore((s) => s.setUnit);
  return (
    <div className="segmented" role="radiogroup" aria-label="Unit">
      {CDM_UNITS.map((u) => (
        <button
          key={u.value}
          type="button"
          role="radio"
          aria-checked={unit === u.value}
          className="segment"
          data-testid={`cdm-unit-${u.value}`}
          onClick={() => setUnit(u.value)}
        >
          {u.label}
        </button>
      ))}
    </div>
  );
}
