import { useId } from 'react';
import { useLingui } from '@lingui/react/macro';
import { FOOTPRINT_CATEGORIES, type FootprintBreakdown } from '../../../shared/schemas/footprint';
import { categoryColour, categoryLabel, tonnesWithUnit } from './labels';

// The breakdown as horizontal bars in inline SVG. A screen reader reads it as one image whose text
// alternative lists every category (role="img", <title>, <desc>); the result page's table under it holds
// the same figures for everyone.

const ROW = 34;
const WIDTH = 340;

export function FootprintChart({ breakdown }: { breakdown: FootprintBreakdown }) {
  const { t, i18n } = useLingui();
  const titleId = useId();
  const descId = useId();
  const max = Math.max(1, ...FOOTPRINT_CATEGORIES.map((c) => breakdown[c]));
  const height = FOOTPRINT_CATEGORIES.length * (ROW + 14);
  const summary = FOOTPRINT_CATEGORIES.map((c) => `${i18n._(categoryLabel[c])}: ${tonnesWithUnit(breakdown[c], i18n.locale)}`).join('; ');
  return (
    <svg
      className="fp-chart"
      role="img"
      aria-labelledby={`${titleId} ${descId}`}
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      data-testid="footprint-chart"
    >
      <title id={titleId}>{t`Your footprint by category, tons CO₂e a year`}</title>
      <desc id={descId}>{summary}</desc>
      {FOOTPRINT_CATEGORIES.map((c, i) => {
        const y = i * (ROW + 14);
        const w = Math.max(2, ((WIDTH - 60) * breakdown[c]) / max);
        return (
          <g key={c} aria-hidden="true">
            <text x={0} y={y + 12} className="fp-chart__label">
              {i18n._(categoryLabel[c])}
            </text>
            <rect x={0} y={y + 18} width={w} height={ROW - 14} rx={4} fill={categoryColour[c]} />
            <text x={w + 6} y={y + 33} className="fp-chart__value">
              {tonnesWithUnit(breakdown[c], i18n.locale)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
