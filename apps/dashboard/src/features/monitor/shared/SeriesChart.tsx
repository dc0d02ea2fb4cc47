import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../shared/chart/EChart.tsx';
import { type ChartUnit, isAllZero } from '../../../shared/chart/valueAxis.ts';
import '../realtime/echarts.ts';
import { type SeriesLine, seriesChartOption } from './seriesChartOption.ts';

interface SeriesChartProps {
  title: string;
  testId: string;
  lines: readonly SeriesLine[];
  unit: ChartUnit;
  max?: number;
  area?: boolean;
}

/** One line chart (sites, streams, nodes), redrawn when the data or the language change; keeps the zoom. */
export const SeriesChart = ({ title, testId, lines, unit, max, area }: SeriesChartProps) => {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const option = useMemo(
    () => seriesChartOption(lines, unit, language, { ...(max !== undefined && { max }), ...(area && { area }) }),
    [lines, unit, language, max, area],
  );
  const empty = isAllZero(lines.map((line) => line.data));
  return <EChart option={option} label={title} testId={testId} height={260} empty={empty} replace="series" />;
};
