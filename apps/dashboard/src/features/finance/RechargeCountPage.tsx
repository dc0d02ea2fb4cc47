import type { OrderCountSeries } from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import DatePicker from 'antd/es/date-picker';
import Table from 'antd/es/table';
import dayjs from 'dayjs';
// antd's zh_CN names this dayjs locale for the calendar's month and weekday names.
import 'dayjs/locale/zh-cn';
import { useMemo, useState } from 'react';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { formatMoney } from './money.ts';
import { orderLabel } from './orderText.ts';
import { RechargeChart } from './RechargeChart.tsx';
import { MAX_RANGE_DAYS, NO_RECHARGES, type RechargeDay, rangeFits, rechargeStats } from './rechargeStats.ts';

const DAY_MS = 86_400_000;

/** A day the date picker hands over (its date library's object). */
interface PickedDay {
  year(): number;
  month(): number;
  date(): number;
}

interface UtcRange {
  from: number;
  to: number;
}

/** The picked calendar days as a UTC range: the first day's 00:00 to the last day's 23:59:59.999. */
const utcRange = (first: PickedDay, last: PickedDay): UtcRange => ({
  from: Date.UTC(first.year(), first.month(), first.date()),
  to: Date.UTC(last.year(), last.month(), last.date()) + DAY_MS - 1,
});

/** The last 30 UTC days, today included. */
const lastDays = (days: number, now = Date.now()): UtcRange => {
  const today = Date.parse(`${new Date(now).toISOString().slice(0, 10)}T00:00:00.000Z`);
  return { from: today - (days - 1) * DAY_MS, to: today + DAY_MS - 1 };
};

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Spec §2 /finance/recharge-count (admin:finance): paid recharges per UTC day and channel over up to 92 days. */
export const Component = () => {
  const { t } = useLocales(FINANCE_LOCALES);
  const http = useHttp();
  const [range, setRange] = useState(() => lastDays(30));
  const fits = rangeFits(range.from, range.to);
  const recharges = useQuery({
    queryKey: ['orders', 'recharge-count', range.from, range.to],
    enabled: fits,
    queryFn: ({ signal }) =>
      http.get<OrderCountSeries>('/v1/order/count', {
        query: { kind: 'recharge', from: isoDay(range.from), to: isoDay(range.to) },
        signal,
      }),
  });
  const stats = useMemo(() => (recharges.data ? rechargeStats(recharges.data) : NO_RECHARGES), [recharges.data]);
  const money = (cents: number | undefined) => formatMoney(cents ?? 0);
  const loading = recharges.isFetching;

  return (
    <section data-testid="recharge-count-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', marginBottom: 16, flexWrap: 'wrap' }}>
        <span>{t('finance.count.range')}</span>
        <DatePicker.RangePicker
          aria-label={t('finance.count.range')}
          // The range in use, so the picker and the table never disagree (the UTC days as calendar days).
          value={[dayjs(isoDay(range.from)), dayjs(isoDay(range.to))]}
          allowClear={false}
          onChange={(value) => setRange(value?.[0] && value[1] ? utcRange(value[0], value[1]) : lastDays(30))}
        />
        <span data-testid="recharge-count-range">
          {isoDay(range.from)} – {isoDay(range.to)}
        </span>
      </div>
      {!fits && <Alert type="warning" showIcon title={t('finance.count.rangeTooLong', { days: MAX_RANGE_DAYS })} />}
      {fits && <RechargeChart stats={stats} />}
      {fits && (
        <Table<RechargeDay>
          rowKey="day"
          size="small"
          data-testid="recharge-count-table"
          loading={loading && !recharges.data}
          dataSource={stats.days.filter((day) => day.count > 0).reverse()}
          locale={{ emptyText: t('finance.count.empty') }}
          pagination={false}
          scroll={{ x: 'max-content', y: 480 }}
          columns={[
            { key: 'day', dataIndex: 'day', title: t('finance.count.day') },
            ...stats.channels.map((channel) => ({
              key: channel,
              title: orderLabel(t, 'channel', channel),
              align: 'right' as const,
              render: (_: unknown, day: RechargeDay) => money(day.byChannel[channel]),
            })),
            { key: 'count', dataIndex: 'count', title: t('finance.count.orders'), align: 'right' },
            {
              key: 'total',
              dataIndex: 'total',
              title: t('finance.count.sum'),
              align: 'right',
              render: (total: number) => <strong>{money(total)}</strong>,
            },
          ]}
          summary={() => (
            <Table.Summary fixed>
              <Table.Summary.Row data-testid="recharge-count-totals">
                <Table.Summary.Cell index={0}>{t('finance.count.total')}</Table.Summary.Cell>
                {stats.channels.map((channel, at) => (
                  <Table.Summary.Cell key={channel} index={at + 1} align="right">
                    {money(stats.totalByChannel[channel])}
                  </Table.Summary.Cell>
                ))}
                <Table.Summary.Cell index={stats.channels.length + 1} align="right">
                  {stats.count}
                </Table.Summary.Cell>
                <Table.Summary.Cell index={stats.channels.length + 2} align="right">
                  <strong>{money(stats.total)}</strong>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            </Table.Summary>
          )}
        />
      )}
    </section>
  );
};
