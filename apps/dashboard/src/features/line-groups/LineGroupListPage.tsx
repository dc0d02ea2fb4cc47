import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { LineGroupView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { useCnameDomains, useLineGroupActions, useLineGroups, useLines } from './api.ts';
import { DnsDriftModal } from './DnsDriftModal.tsx';
import { LineGroupDrawer } from './LineGroupDrawer.tsx';
import { lineName } from './lineName.ts';
import { LINE_GROUPS_LOCALES } from './locales/bundle.ts';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** Spec §2 /node/line-group (admin:node): the line groups, add, edit, delete, and set resolution. */
export const Component = () => {
  const { t, i18n } = useLocales(LINE_GROUPS_LOCALES);
  const totalText = useTotalText();
  const feedback = useFeedback();
  const navigate = useNavigate();
  const groups = useLineGroups();
  const lines = useLines();
  const domains = useCnameDomains();
  const actions = useLineGroupActions();
  // null: adding one; a group: editing it; undefined: closed.
  const [editing, setEditing] = useState<LineGroupView | null>();
  const [checking, setChecking] = useState<LineGroupView>();
  const list = groups.data ?? [];

  return (
    <section data-testid="line-group-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} style={{ marginBottom: 16 }}>
        {t('lineGroups.list.add')}
      </Button>
      <Table<LineGroupView>
        rowKey="id"
        size="middle"
        data-testid="line-group-table"
        loading={groups.isFetching && !groups.data}
        dataSource={list}
        locale={{ emptyText: t('lineGroups.list.empty') }}
        scroll={{ x: 'max-content' }}
        pagination={{ showTotal: totalText }}
        columns={[
          { key: 'id', dataIndex: 'id', title: 'ID', width: 70 },
          {
            key: 'name',
            title: t('lineGroups.column.name'),
            onCell: () => NO_WRAP,
            render: (_, group) => (
              <Space size={4}>
                {group.name}
                {group.is_default && <Tag color="blue">{t('lineGroups.defaultTag')}</Tag>}
              </Space>
            ),
          },
          {
            key: 'fqdn',
            dataIndex: 'fqdn',
            title: t('lineGroups.column.fqdn'),
            onCell: () => NO_WRAP,
            render: (fqdn: string) => fqdn || '—',
          },
          {
            key: 'lines',
            title: t('lineGroups.column.lines'),
            render: (_, group) =>
              [...new Set(group.records.map((record) => record.line_id))].map((id) => (
                <Tag key={id}>{lineName(lines.data ?? [], id, i18n.language)}</Tag>
              )),
          },
          { key: 'nodes', dataIndex: 'node_count', title: t('lineGroups.column.nodes') },
          {
            key: 'backup',
            dataIndex: 'backup_group_id',
            title: t('lineGroups.column.backup'),
            render: (id: number | null) =>
              id === null ? '—' : (list.find((group) => group.id === id)?.name ?? `#${id}`),
          },
          {
            key: 'publish',
            title: t('lineGroups.column.publish'),
            render: (_, group) =>
              group.publish_error ? (
                <Tooltip title={group.publish_error}>
                  <Tag color="red" data-testid={`line-group-publish:${group.name}`}>
                    {t('lineGroups.publish.failed')}
                  </Tag>
                </Tooltip>
              ) : (
                <Tag color={group.published_at ? 'green' : undefined} data-testid={`line-group-publish:${group.name}`}>
                  {group.published_at ? t('lineGroups.publish.ok') : t('lineGroups.publish.never')}
                </Tag>
              ),
          },
          {
            key: 'actions',
            title: t('lineGroups.column.actions'),
            fixed: 'right',
            onCell: () => NO_WRAP,
            render: (_, group) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => navigate(`/node/line-group/line/${group.id}`)}
                  data-testid={`line-group-resolution:${group.name}`}
                >
                  {t('lineGroups.action.resolution')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  disabled={!group.fqdn}
                  onClick={() => setChecking(group)}
                  data-testid={`line-group-check-dns:${group.name}`}
                >
                  {t('lineGroups.action.checkDns')}
                </Button>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setEditing(group)}
                  data-testid={`line-group-edit:${group.name}`}
                >
                  {t('lineGroups.action.edit')}
                </Button>
                <Popconfirm
                  title={t('lineGroups.confirm.delete', { name: group.name })}
                  okText={t('lineGroups.confirm.ok')}
                  cancelText={t('lineGroups.confirm.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    try {
                      await actions.removeGroup(group.id);
                      feedback.success(t('lineGroups.done.deleted'));
                    } catch {
                      // The client showed why.
                    }
                  }}
                >
                  <Button type="link" size="small" danger data-testid={`line-group-delete:${group.name}`}>
                    {t('lineGroups.action.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      {checking && <DnsDriftModal group={checking} onClose={() => setChecking(undefined)} />}
      {editing !== undefined && (
        <LineGroupDrawer
          group={editing}
          groups={list}
          domains={domains.data ?? []}
          onClose={() => setEditing(undefined)}
        />
      )}
    </section>
  );
};
