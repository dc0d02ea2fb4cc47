import List from 'antd/es/list';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatNumber } from '../monitor/model/units.ts';
import { DailyTrafficChart } from '../usage/shared/DailyTrafficChart.tsx';
import { useUserOverview } from './api.ts';
import { Figures } from './Figures.tsx';
import { PANEL } from './panel.ts';

/** A user's home: their sites and streams, today's and this month's traffic, its trend and expiring certificates. */
export const UserFigures = () => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const { data } = useUserOverview();
  if (!data) return null;
  const number = (value: number) => formatNumber(value, language);
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
  return (
    <>
      <Figures
        title={t('overview.mine.services')}
        figures={[
          ['sites', t('overview.figures.sites'), number(data.sites)],
          ['streams', t('overview.figures.streams'), number(data.streams)],
          ['certs', t('overview.mine.certs'), number(data.certs)],
          ['certs-expiring', t('overview.mine.certsExpiring'), number(data.certs_expiring)],
          ['month-traffic', t('overview.mine.monthTraffic'), formatBytes(data.month.bytes_out, language)],
        ]}
      />
      <Figures
        title={t('overview.figures.today')}
        figures={[
          ['traffic', t('overview.figures.traffic'), formatBytes(data.today.bytes_out, language)],
          ['requests', t('overview.figures.requests'), number(data.today.requests)],
          ['blocked', t('overview.figures.blocked'), number(data.today.blocked)],
        ]}
      />
      <div style={PANEL}>
        <DailyTrafficChart days={data.trend} label={t('overview.trend')} testId="overview-trend" />
      </div>
      {data.certs_expiring_list.length > 0 && (
        <div style={PANEL}>
          <List
            data-testid="overview-expiring-certs"
            size="small"
            header={t('overview.mine.certsExpiring')}
            dataSource={data.certs_expiring_list}
            renderItem={(cert) => (
              <List.Item>
                {cert.name || `#${cert.id}`} ·{' '}
                {t('overview.mine.notAfter', { date: when.format(new Date(cert.not_after)) })}
              </List.Item>
            )}
          />
        </div>
      )}
    </>
  );
};
