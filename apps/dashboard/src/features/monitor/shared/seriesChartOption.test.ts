import { describe, expect, it } from 'vitest';
import { hasIsolatedPoint, seriesChartOption } from './seriesChartOption.ts';

describe('seriesChartOption', () => {
  it('shows symbols only on lines with a value between gaps, which a line alone cannot draw', () => {
    expect(
      hasIsolatedPoint([
        [0, null],
        [60, 5],
        [120, null],
      ]),
    ).toBe(true);
    expect(hasIsolatedPoint([[0, 5]])).toBe(true);
    expect(
      hasIsolatedPoint([
        [0, 1],
        [60, 2],
        [120, null],
      ]),
    ).toBe(false);
    expect(hasIsolatedPoint([[0, null]])).toBe(false);
    const option = seriesChartOption(
      [
        {
          name: 'gauge',
          data: [
            [0, null],
            [60, 5],
            [120, null],
          ],
        },
        {
          name: 'counter',
          data: [
            [0, 0],
            [60, 5],
            [120, 0],
          ],
        },
      ],
      'count',
      'en-US',
    );
    expect(option.series.map((line) => line.showSymbol)).toEqual([true, false]);
  });

  it('writes the tooltip as text: a series name cannot add markup', () => {
    const option = seriesChartOption([{ name: '<img src=x>', data: [[0, 1]] }], 'count', 'en-US');
    const html = option.tooltip.formatter([{ seriesName: '<img src=x>', value: [0, 1] }]);
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img src=x&#62;: 1');
  });
});
