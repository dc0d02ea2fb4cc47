import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { Site } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { CnameCheckModal } from '../../dns/CnameCheckModal.tsx';
import { CnameRecordsModal } from '../../dns/CnameRecordsModal.tsx';
import { DnsApiModal } from '../../dns/DnsApiModal.tsx';
import { type SiteListQuery, useGroupActions, useSiteActions, useSiteGroups, useSiteList } from '../api.ts';
import { BatchBar, type BatchRequest } from './BatchBar.tsx';
import { GroupModal } from './GroupModal.tsx';
import { SiteDefaultsDrawer } from './SiteDefaultsDrawer.tsx';
import { SiteDrawer } from './SiteDrawer.tsx';
import { type SiteFilter, SiteFilters } from './SiteFilters.tsx';
import { siteColumns } from './siteColumns.tsx';

const SORT_FIELDS: Record<string, string> = { id: 'id', domain: 'domain', updated_at: 'updated_at' };

const sortOf = (sorter: SorterResult<Site>): string | undefined => {
  const field = SORT_FIELDS[String(sorter.columnKey)];
  if (!field || !sorter.order) return undefined;
  return sorter.order === 'descend' ? `-${field}` : field;
};

/** Spec §2 /site/list: the customer's sites, paged, filtered and sorted by the server. */
export const Component = () => {
  const { t, i18n } = useTranslation();
  const feedback = useFeedback();
  const [query, setQuery] = useState<SiteListQuery>({ page: 1, limit: 20, sort: '-id' });
  const [selected, setSelected] = useState<number[]>([]);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [groupsOpen, setGroupsOpen] = useState(false);
  // Which dialog besides the add drawer is open; the DNS ones are for one site.
  const [dialog, setDialog] = useState<{ kind: 'defaults' | 'dnsApis' } | { kind: 'check' | 'records'; site: Site }>();
  const sites = useSiteList(query);
  const groups = useSiteGroups();
  const groupActions = useGroupActions('/v1/site-groups', 'site-groups');
  const actions = useSiteActions();
  const groupList = groups.data ?? [];

  const filter = (change: SiteFilter) => setQuery((current) => ({ ...current, ...change, page: 1 }));
  const runBatch = async (request: BatchRequest) => {
    const groupId = request.action === 'move' ? request.groupId || null : undefined;
    await actions.batch(selected, request.action, groupId);
    setSelected([]);
    feedback.success(t('sites.batch.done'));
  };

  const closeDialog = () => setDialog(undefined);

  const removeSite = async (site: Site) => {
    await actions.remove(site.id);
    feedback.success(t('sites.list.deleted'));
  };

  return (
    <section data-testid="site-list-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <SiteFilters groups={groupList} onChange={filter} />
        <span style={{ marginLeft: 'auto' }} />
        <Button onClick={() => setDialog({ kind: 'dnsApis' })}>{t('dns.api.manage')}</Button>
        <Button onClick={() => setDialog({ kind: 'defaults' })}>{t('sites.defaults.button')}</Button>
        <Button onClick={() => setGroupsOpen(true)}>{t('sites.group.manage')}</Button>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawerOpen(true)}>
          {t('sites.list.add')}
        </Button>
      </div>
      {selected.length > 0 && (
        <div style={{ marginBottom: 12 }}>
          <BatchBar count={selected.length} groups={groupList} onRun={runBatch} />
        </div>
      )}
      <Table<Site>
        rowKey="id"
        size="middle"
        loading={sites.isFetching}
        dataSource={sites.data?.list ?? []}
        columns={siteColumns(t, i18n.language, groupList, query.sort, {
          onDelete: removeSite,
          onCheckDns: (site) => setDialog({ kind: 'check', site }),
          onCreateRecords: (site) => setDialog({ kind: 'records', site }),
        })}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        scroll={{ x: 900 }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: sites.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (total) => t('sites.list.total', { count: total }),
        }}
        onChange={(pagination, _filters, sorter) => {
          const sort = Array.isArray(sorter) ? undefined : sortOf(sorter);
          setQuery((current) => ({
            ...current,
            page: sort === current.sort ? (pagination.current ?? 1) : 1,
            limit: pagination.pageSize ?? current.limit,
            sort,
          }));
        }}
      />
      <SiteDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
      <SiteDefaultsDrawer open={dialog?.kind === 'defaults'} onClose={closeDialog} />
      <DnsApiModal open={dialog?.kind === 'dnsApis'} onClose={closeDialog} />
      <CnameCheckModal site={dialog?.kind === 'check' ? dialog.site : null} onClose={closeDialog} />
      <CnameRecordsModal site={dialog?.kind === 'records' ? dialog.site : null} onClose={closeDialog} />
      <GroupModal open={groupsOpen} onClose={() => setGroupsOpen(false)} groups={groupList} actions={groupActions} />
    </section>
  );
};
