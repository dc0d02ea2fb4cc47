import { MONITOR_LIMITS } from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Spin from 'antd/es/spin';
import { MapChart } from 'echarts/charts';
import { TooltipComponent, VisualMapComponent } from 'echarts/components';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EChart } from '../../../shared/chart/EChart.tsx';
import { type SiteScope, useSiteTop } from '../api.ts';
import { type RangeChoice, withinRawLog } from '../model/ranges.ts';
import { countryMapOption, WORLD_MAP } from './countryMapOption.ts';
import { echarts } from './echarts.ts';

echarts.use([MapChart, VisualMapComponent, TooltipComponent]);

/** The world's countries (GeoJSON, public domain), fetched once as a chunk of its own and registered with ECharts. */
const useWorld = () =>
  useQuery({
    queryKey: ['monitor', 'world-geojson'],
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const world = (await import('@surbowl/world-geo-json-zh/world.zh.json')).default;
      echarts.registerMap(WORLD_MAP, world as unknown as Parameters<typeof echarts.registerMap>[1]);
      return true;
    },
  });

/** Requests by country over the scope and range, on a world map (loaded after the page's first paint). */
export default function CountryMap({ scope, range }: { scope: SiteScope; range: RangeChoice }) {
  const { t, i18n } = useTranslation();
  const answerable = withinRawLog(range, Date.now());
  const world = useWorld();
  const top = useSiteTop(scope, range, 'country', answerable, MONITOR_LIMITS.topMaxLimit);
  const language = i18n.language;
  const list = top.data?.by === 'country' ? top.data.list : undefined;
  const option = useMemo(() => countryMapOption(list ?? [], language, t('monitor.top.requests')), [list, language, t]);
  return (
    <Card size="small" title={t('monitor.realtime.countries')} data-testid="country-map-card">
      {!answerable ? (
        <Alert type="info" showIcon title={t('monitor.top.rawLimit', { days: MONITOR_LIMITS.rawLogDays })} />
      ) : world.data ? (
        <EChart
          option={option}
          label={t('monitor.realtime.countries')}
          testId="country-map"
          height={420}
          empty={(list ?? []).every((entry) => entry.key === '')}
        />
      ) : (
        <Spin />
      )}
    </Card>
  );
}
