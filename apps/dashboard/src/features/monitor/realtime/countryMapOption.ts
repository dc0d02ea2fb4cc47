import type { TopEntry } from '@rampart/contracts';
import { countryName } from '../model/countries.ts';
import { formatNumber } from '../model/units.ts';

/** The name the world's GeoJSON is registered under with ECharts. */
export const WORLD_MAP = 'rampart-world';

/**
 * The world map of requests by country: each country (by its ISO 3166-1 alpha-2 code, the
 * GeoJSON's `iso_a2`) shaded by its requests; requests of an unknown country are left out.
 */
export function countryMapOption(entries: readonly TopEntry[], language: string, requestsLabel: string) {
  const data = entries.filter((entry) => entry.key !== '').map((entry) => ({ name: entry.key, value: entry.requests }));
  const max = Math.max(1, ...data.map((item) => item.value));
  return {
    tooltip: {
      trigger: 'item',
      formatter: (item: { name: string; value?: number }) =>
        `${countryName(item.name, language)} (${item.name})<br/>${requestsLabel}: ${formatNumber(
          Number.isFinite(item.value) ? (item.value as number) : 0,
          language,
        )}`,
    },
    visualMap: {
      min: 0,
      max,
      left: 'left',
      bottom: 8,
      calculable: true,
      inRange: { color: ['#e6f4ff', '#1677ff', '#002c8c'] },
    },
    series: [
      {
        type: 'map',
        map: WORLD_MAP,
        nameProperty: 'iso_a2',
        roam: true,
        emphasis: { label: { show: false } },
        data,
      },
    ],
  };
}
