import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { dailyTrafficOption } from './usageChart.ts';

const t = ((key: string) => key) as unknown as TFunction;

describe('the daily traffic chart', () => {
  const days = [
    { date: '2026-11-01', bytes_out: 1_500_000, peak_bps: 40_000 },
    { date: '2026-11-02', bytes_out: 0, peak_bps: 0 },
  ];

  it('draws bytes per day as bars, the peak on its own axis and the 95th percentile as a line', () => {
    const option = dailyTrafficOption(days, t, 'en-US', 32_000);
    expect(option.xAxis.data).toEqual(['2026-11-01', '2026-11-02']);
    expect(option.yAxis).toHaveLength(2);
    expect(option.series[0]).toMatchObject({ type: 'bar', data: [1_500_000, 0] });
    expect(option.series[1]).toMatchObject({ type: 'line', yAxisIndex: 1, data: [40_000, 0] });
    expect(option.series[1]).toMatchObject({
      markLine: {
        data: [{ yAxis: 32_000 }],
        label: { formatter: 'usage.chart.p95: 32 Kbps', position: 'insideEndTop' },
      },
    });
  });

  it('has one axis when no peaks are known, and shows values as text in the tooltip', () => {
    const option = dailyTrafficOption([{ date: '2026-11-01', bytes_out: 2000 }], t, 'en-US');
    expect(option.yAxis).toHaveLength(1);
    expect(option.series).toHaveLength(1);
    const html = option.tooltip.formatter([
      { axisValueLabel: '<b>2026-11-01</b>', seriesName: 'x<script>', seriesIndex: 0, value: 2000 },
    ]);
    expect(html).toBe('&#60;b&#62;2026-11-01&#60;/b&#62;<br/>x&#60;script&#62;: 2 KB');
  });
});
