import type { Stream } from '@rampart/contracts';
import Button from 'antd/es/button';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { useGroupActions } from '../sites/api.ts';
import { BatchBar, type BatchRequest } from '../sites/list/BatchBar.tsx';
import { GroupModal } from '../sites/list/GroupModal.tsx';
import { SITES_LOCALES } from '../sites/locales/bundle.ts';
import { AddButton } from '../sites/package/AddButton.tsx';
import { PackageRequiredNotice } from '../sites/package/PackageRequiredNotice.tsx';
import { usePackageGate } from '../sites/package/usePackageGate.ts';
import { useReachesEveryUser } from '../sites/useReachesEveryUser.ts';
import { type StreamListQuery, useStreamActions, useStreamGroups, useStreamList } from './api.ts';
import { STREAMS_LOCALES } from './locales/bundle.ts';
import { StreamDrawer } from './StreamDrawer.tsx';
import { streamColumns } from './streamColumns.tsx';

type Editing = { stream: Stream | undefined } | null;

/** Spec §2 /stream/list: TCP/UDP forwarding rules, paged and filtered by the server. */
export const Component = () => {
  const { t } = useLocales(STREAMS_LOCALES, SITES_LOCALES);
  const admin = useReachesEveryUser();
  const feedback = useFeedback();
  const [query, setQuery] = useState<StreamListQuery>({ page: 1, limit: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Editing>(null);
  const [groupsOpen, setGroupsOpen] = useState(false);
  const streams = useStreamList(query);
  const gate = usePackageGate();
  const totalText = useTotalText();
  const groups = useStreamGroups();
  const groupActions = useGroupActions('/v1/stream-groups', 'stream-groups');
  const actions = useStreamActions();
  const groupList = groups.data ?? [];
  const filter = (change: Partial<StreamListQuery>) => setQuery((current) => ({ ...current, ...change, page: 1 }));

  const runBatch = async (request: BatchRequest) => {
    await actions.batch(selected, request.action, request.action === 'move' ? request.groupId || null : undefined);
    setSelected([]);
    feedback.success(t('sites.batch.done'));
  };

  return (
    <section data-testid="stream-list-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <InputNumber
          aria-label={t('streams.list.port')}
          placeholder={t('streams.list.port')}
          min={1}
          max={65535}
          precision={0}
          style={{ width: 160 }}
          onChange={(port) => filter({ port: typeof port === 'number' ? port : undefined })}
        />
        <Select<'tcp' | 'udp'>
          allowClear
          aria-label={t('streams.field.protocol')}
          placeholder={t('streams.field.protocol')}
          style={{ width: 120 }}
          onChange={(protocol) => filter({ protocol })}
          options={[
            { value: 'tcp', label: 'TCP' },
            { value: 'udp', label: 'UDP' },
          ]}
        />
        <Select<number>
          allowClear
          aria-label={t('sites.list.group')}
          placeholder={t('sites.list.group')}
          style={{ width: 160 }}
          onChange={(group_id) => filter({ group_id })}
          options={groupList.map((group) => ({ value: group.id, label: group.name }))}
        />
        <Select<string>
          allowClear
          aria-label={t('sites.list.status')}
          placeholder={t('sites.list.status')}
          style={{ width: 130 }}
          onChange={(value) => filter({ enabled: value === undefined ? undefined : value === 'true' })}
          options={[
            { value: 'true', label: t('sites.enabled') },
            { value: 'false', label: t('sites.disabled') },
          ]}
        />
        <span style={{ marginLeft: 'auto' }} />
        <Button onClick={() => setGroupsOpen(true)}>{t('sites.group.manage')}</Button>
        <AddButton blocked={gate.blocked} onAdd={() => setEditing({ stream: undefined })}>
          {t('streams.list.add')}
        </AddButton>
      </div>
      {gate.blocked && <PackageRequiredNotice />}
      {selected.length > 0 && (
        <div style={{ marginBottom: 12 }}>
          <BatchBar count={selected.length} groups={groupList} onRun={runBatch} />
        </div>
      )}
      <Table<Stream>
        rowKey="id"
        size="middle"
        loading={streams.isFetching}
        dataSource={streams.data?.list ?? []}
        columns={streamColumns(t, groupList, (stream) => setEditing({ stream }), admin)}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: streams.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: totalText,
        }}
        onChange={(pagination) =>
          setQuery((current) => ({ ...current, page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 }))
        }
      />
      {editing && (
        <StreamDrawer stream={editing.stream} onClose={() => setEditing(null)} onPackageRequired={gate.onRefused} />
      )}
      <GroupModal open={groupsOpen} onClose={() => setGroupsOpen(false)} groups={groupList} actions={groupActions} />
    </section>
  );
};
