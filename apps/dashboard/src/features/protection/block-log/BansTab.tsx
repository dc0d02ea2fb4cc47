import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useTotalText } from '../../../shared/table/totals.ts';
import { type Ban, type BanQuery, useBanActions, useBanCounts, useBans } from '../api.ts';
import { type BanFilter, BanFilters } from './BanFilters.tsx';
import { BanModal } from './BanModal.tsx';
import { banColumns } from './banColumns.tsx';

/** Addresses banned now, by hand or by the edges (a rule with action ban); each can be lifted. */
export const BansTab = () => {
  const { t, i18n } = useTranslation();
  const totalText = useTotalText();
  const feedback = useFeedback();
  const [query, setQuery] = useState<BanQuery>({ page: 1, limit: 20 });
  const [banning, setBanning] = useState(false);
  const bans = useBans(query);
  const counts = useBanCounts();
  const actions = useBanActions();
  const filter = (change: BanFilter) => setQuery((current) => ({ ...current, ...change, page: 1 }));
  const unban = async (ban: Ban) => {
    await actions.unban({ site_id: ban.site_id, ip: ban.cidr });
    feedback.success(t('protection.bans.unbanned', { cidr: ban.cidr }));
  };
  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 12 }}>
        <BanFilters filter={query} onChange={filter} />
        <span style={{ marginLeft: 'auto' }} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setBanning(true)}>
          {t('protection.bans.add')}
        </Button>
      </div>
      {(counts.data?.length ?? 0) > 0 && (
        <div style={{ marginBottom: 12 }} data-testid="ban-counts">
          {t('protection.bans.bySite')}{' '}
          {counts.data?.map((count) => (
            <Button key={count.site_id} size="small" type="link" onClick={() => filter({ site_id: count.site_id })}>
              {count.site_id === 0 ? t('protection.allSites') : `#${count.site_id}`}: {count.count}
            </Button>
          ))}
        </div>
      )}
      <Table<Ban>
        rowKey="id"
        size="small"
        data-testid="ban-list"
        loading={bans.isFetching}
        dataSource={bans.data?.list ?? []}
        columns={banColumns(t, i18n.language, unban)}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: bans.data?.total ?? 0,
          showTotal: totalText,
        }}
        onChange={(pagination) =>
          setQuery((current) => ({ ...current, page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 }))
        }
      />
      <BanModal open={banning} onClose={() => setBanning(false)} />
    </>
  );
};
