import type { Site, SiteGroup } from '@rampart/contracts';
import Button from 'antd/es/button';
import { lazy, useCallback, useMemo, useState } from 'react';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { LoadOnOpen } from '../../../shared/lazy/LoadOnOpen.tsx';
import { DNS_LOCALES } from '../../dns/locales/bundle.ts';
import { useGroupActions, useSiteActions, useSiteGroups, useSiteList } from '../api.ts';
import { SITES_LOCALES } from '../locales/bundle.ts';
import { AddButton } from '../package/AddButton.tsx';
import { PackageRequiredNotice } from '../package/PackageRequiredNotice.tsx';
import { usePackageGate } from '../package/usePackageGate.ts';
import { FIRST_SITE_PAGE, type SiteListQuery } from '../siteQueries.ts';
import { BatchBar, type BatchRequest } from './BatchBar.tsx';
import { type SiteFilter, SiteFilters } from './SiteFilters.tsx';
import { SiteTable } from './SiteTable.tsx';
import type { SiteRowActions } from './siteColumns.tsx';

// The list's first paint needs none of the dialogs: each loads when it is first opened.
const SiteDrawer = lazy(async () => ({ default: (await import('./SiteDrawer.tsx')).SiteDrawer }));
const SiteDefaultsDrawer = lazy(async () => ({
  default: (await import('./SiteDefaultsDrawer.tsx')).SiteDefaultsDrawer,
}));
const GroupModal = lazy(async () => ({ default: (await import('./GroupModal.tsx')).GroupModal }));
const DnsApiModal = lazy(async () => ({ default: (await import('../../dns/DnsApiModal.tsx')).DnsApiModal }));
const DnsGuideModal = lazy(async () => ({ default: (await import('./DnsGuideModal.tsx')).DnsGuideModal }));
const CnameRecordsModal = lazy(async () => ({
  default: (await import('../../dns/CnameRecordsModal.tsx')).CnameRecordsModal,
}));

type Dialog = 'add' | 'defaults' | 'dnsApis' | 'groups';
const NO_GROUPS: SiteGroup[] = [];

/** Spec §2 /site/list: the customer's sites, paged, filtered and sorted by the server. */
export const Component = () => {
  const { t } = useLocales(SITES_LOCALES, DNS_LOCALES);
  const feedback = useFeedback();
  // The first page is the one a navigation here prefetches (app/prefetch.ts).
  const [query, setQuery] = useState<SiteListQuery>(FIRST_SITE_PAGE);
  const [selected, setSelected] = useState<number[]>([]);
  const [dialog, setDialog] = useState<Dialog>();
  // The DNS dialogs are for one site.
  const [dnsSite, setDnsSite] = useState<{ kind: 'guide' | 'records'; site: Site }>();
  const sites = useSiteList(query);
  const gate = usePackageGate();
  const groups = useSiteGroups();
  const groupActions = useGroupActions('/v1/site-groups', 'site-groups');
  const actions = useSiteActions();
  const groupList = groups.data ?? NO_GROUPS;

  const filter = (change: SiteFilter) => setQuery((current) => ({ ...current, ...change, page: 1 }));
  const runBatch = async (request: BatchRequest) => {
    const groupId = request.action === 'move' ? request.groupId || null : undefined;
    await actions.batch(selected, request.action, groupId);
    setSelected([]);
    feedback.success(t('sites.batch.done'));
  };
  const closeDialog = useCallback(() => setDialog(undefined), []);
  const closeDnsSite = useCallback(() => setDnsSite(undefined), []);
  const { remove } = actions;
  const rowActions = useMemo<SiteRowActions>(
    () => ({
      onDelete: async (site) => {
        await remove(site.id);
        feedback.success(t('sites.list.deleted'));
      },
      onDnsGuide: (site) => setDnsSite({ kind: 'guide', site }),
      onCreateRecords: (site) => setDnsSite({ kind: 'records', site }),
    }),
    [remove, feedback, t],
  );

  return (
    <section data-testid="site-list-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <SiteFilters groups={groupList} onChange={filter} />
        <span style={{ marginLeft: 'auto' }} />
        <Button onClick={() => setDialog('dnsApis')}>{t('dns.api.manage')}</Button>
        <Button onClick={() => setDialog('defaults')}>{t('sites.defaults.button')}</Button>
        <Button onClick={() => setDialog('groups')}>{t('sites.group.manage')}</Button>
        <AddButton blocked={gate.blocked} onAdd={() => setDialog('add')}>
          {t('sites.list.add')}
        </AddButton>
      </div>
      {gate.blocked && <PackageRequiredNotice />}
      {selected.length > 0 && (
        <div style={{ marginBottom: 12 }}>
          <BatchBar count={selected.length} groups={groupList} onRun={runBatch} />
        </div>
      )}
      <SiteTable
        query={query}
        onQueryChange={setQuery}
        page={sites.data}
        loading={sites.isFetching}
        groups={groupList}
        selected={selected}
        onSelect={setSelected}
        actions={rowActions}
      />
      <LoadOnOpen open={dialog === 'add'}>
        <SiteDrawer open={dialog === 'add'} onClose={closeDialog} onPackageRequired={gate.onRefused} />
      </LoadOnOpen>
      <LoadOnOpen open={dialog === 'defaults'}>
        <SiteDefaultsDrawer open={dialog === 'defaults'} onClose={closeDialog} />
      </LoadOnOpen>
      <LoadOnOpen open={dialog === 'dnsApis'}>
        <DnsApiModal open={dialog === 'dnsApis'} onClose={closeDialog} />
      </LoadOnOpen>
      <LoadOnOpen open={dialog === 'groups'}>
        <GroupModal open={dialog === 'groups'} onClose={closeDialog} groups={groupList} actions={groupActions} />
      </LoadOnOpen>
      <LoadOnOpen open={dnsSite?.kind === 'guide'}>
        <DnsGuideModal site={dnsSite?.kind === 'guide' ? dnsSite.site : null} onClose={closeDnsSite} />
      </LoadOnOpen>
      <LoadOnOpen open={dnsSite?.kind === 'records'}>
        <CnameRecordsModal site={dnsSite?.kind === 'records' ? dnsSite.site : null} onClose={closeDnsSite} />
      </LoadOnOpen>
    </section>
  );
};
