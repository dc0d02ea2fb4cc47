import { formatBitRate, formatBytes, formatNumber, formatPercent } from '../../features/monitor/model/units.ts';

/** What a chart's values measure; each has its own labels and its own smallest step. */
/** `rate` is a count per second, which has fractions; `ratio` is 0 to 1, shown as a percentage. */
export type ChartUnit = 'bytes' | 'bitRate' | 'count' | 'rate' | 'ms' | 'money' | 'ratio';

/**
 * The smallest step between two ticks: the labels round to these, so a finer step would repeat a
 * label ("1 B, 1 B, 0 B"). Bytes, bits and counts are whole; rates, milliseconds and money show cents.
 */
const MIN_INTERVAL: Record<ChartUnit, number | undefined> = {
  bytes: 1,
  bitRate: 1,
  count: 1,
  rate: 0.01,
  ms: 0.01,
  money: 0.01,
  ratio: undefined,
};

/** The top of the axis when every value is zero or missing: a small round range with distinct labels. */
const EMPTY_MAX: Record<ChartUnit, number> = { bytes: 5, bitRate: 5, count: 5, rate: 1, ms: 1, money: 1, ratio: 1 };

/** How a value of the unit reads on an axis or in a tooltip, in the user's language. */
export const unitFormat =
  (unit: ChartUnit, language: string) =>
  (value: number): string => {
    switch (unit) {
      case 'bytes':
        return formatBytes(value, language);
      case 'bitRate':
        return formatBitRate(value, language);
      case 'ratio':
        return formatPercent(value, language);
      case 'ms':
        return `${value.toLocaleString(language, { maximumFractionDigits: 2 })} ms`;
      case 'money':
        return value.toLocaleString(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      default:
        return formatNumber(value, language);
    }
  };

type Value = number | null | undefined | readonly [unknown, number | null | undefined];

const plotted = (value: Value): number => {
  const number = Array.isArray(value) ? value[1] : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : 0;
};

/** Whether a chart has nothing to show: every value of every series is zero or missing. */
export const isAllZero = (series: readonly (readonly Value[])[]): boolean =>
  series.every((values) => values.every((value) => plotted(value) === 0));

/**
 * A value axis for a unit: from zero, labels in the unit, ticks no finer than the labels can tell
 * apart, and a fixed small range when the series are all zero so no label repeats. `max` pins the
 * top (a ratio's 100 %).
 */
export function valueAxis(
  unit: ChartUnit,
  language: string,
  series: readonly (readonly Value[])[],
  options: { max?: number } = {},
) {
  const minInterval = MIN_INTERVAL[unit];
  const max = options.max ?? (isAllZero(series) ? EMPTY_MAX[unit] : undefined);
  return {
    type: 'value' as const,
    min: 0,
    ...(max !== undefined && { max }),
    ...(minInterval !== undefined && { minInterval }),
    axisLabel: { formatter: unitFormat(unit, language), hideOverlap: true },
  };
}
