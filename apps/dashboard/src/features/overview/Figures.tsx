import Statistic from 'antd/es/statistic';
import { PANEL } from './panel.ts';

/** A panel of named figures, each findable by `overview-figure-<key>`. */
export const Figures = ({
  title,
  figures,
}: {
  title: string;
  figures: readonly (readonly [string, string, string])[];
}) => (
  <div style={PANEL}>
    <h3 style={{ fontSize: 16, fontWeight: 600, margin: '0 0 12px' }}>{title}</h3>
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 40 }}>
      {figures.map(([key, label, value]) => (
        <Statistic key={key} title={label} value={value} data-testid={`overview-figure-${key}`} />
      ))}
    </div>
  </div>
);
