import { LineChart } from 'echarts/charts';
import { GridComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import { type ChartUnit, isAllZero, unitFormat, valueAxis } from './valueAxis.ts';

echarts.use([LineChart, GridComponent, SVGRenderer]);

/** The y-axis labels ECharts draws for a series on the axis, rendered to SVG as in a browser. */
const axisLabels = (unit: ChartUnit, values: readonly number[], language = 'en-US'): string[] => {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 600, height: 300 });
  chart.setOption({
    animation: false,
    grid: { left: 80, right: 20, top: 20, bottom: 20 },
    xAxis: { type: 'category', data: values.map((_value, index) => String(index)), axisLabel: { show: false } },
    yAxis: valueAxis(unit, language, [values]),
    series: [{ type: 'line', data: [...values] }],
  });
  const svg = chart.renderToSVGString();
  chart.dispose();
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1] ?? '');
};

const ZEROS = [0, 0, 0, 0, 0, 0];

describe('valueAxis', () => {
  it.each<ChartUnit>(['bytes', 'bitRate', 'count', 'rate', 'ms', 'money', 'ratio'])(
    'draws distinct %s labels for a series of zeros',
    (unit) => {
      const labels = axisLabels(unit, ZEROS);
      expect(labels.length).toBeGreaterThan(2);
      expect(new Set(labels).size).toBe(labels.length);
    },
  );

  it('draws distinct labels for small values that the labels round', () => {
    for (const unit of ['bytes', 'bitRate', 'count'] as const) {
      const labels = axisLabels(unit, [0, 1, 0, 2, 1, 0]);
      expect(new Set(labels).size, unit).toBe(labels.length);
    }
    for (const unit of ['rate', 'ms', 'money'] as const) {
      const labels = axisLabels(unit, [0, 0.02, 0.01, 0.03]);
      expect(new Set(labels).size, unit).toBe(labels.length);
    }
  });

  it('labels each unit in its own words', () => {
    expect(axisLabels('bytes', ZEROS)).toContain('0 B');
    expect(axisLabels('bytes', [0, 2_000_000])).toContain('2 MB');
    expect(axisLabels('bitRate', [0, 3_000])).toContain('3 Kbps');
    expect(axisLabels('count', [0, 4])).toEqual(['0', '1', '2', '3', '4']);
    expect(axisLabels('ms', ZEROS)).toContain('1 ms');
    expect(axisLabels('money', [0, 10])).toContain('10.00');
    expect(axisLabels('ratio', [0, 0.5], 'en-US')).toContain('50%');
  });

  it('keeps counts on whole ticks and lets a pinned top stand', () => {
    expect(valueAxis('count', 'en-US', [[1, 2]]).minInterval).toBe(1);
    expect(valueAxis('ratio', 'en-US', [[0]], { max: 1 }).max).toBe(1);
    expect(valueAxis('bytes', 'en-US', [[10]]).max).toBeUndefined();
  });
});

describe('isAllZero and unitFormat', () => {
  it('sees time pairs, nulls and zeros as nothing to show', () => {
    expect(
      isAllZero([
        [0, null],
        [[1, 0] as const, [2, null] as const],
      ]),
    ).toBe(true);
    expect(isAllZero([])).toBe(true);
    expect(isAllZero([[0, 3]])).toBe(false);
    expect(isAllZero([[[1, 7] as const]])).toBe(false);
  });
  it('formats in the user’s language', () => {
    expect(unitFormat('bytes', 'zh-CN')(1_500)).toBe('1.5 KB');
    expect(unitFormat('money', 'en-US')(1234.5)).toBe('1,234.50');
  });
});
