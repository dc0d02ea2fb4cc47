import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { NodeView, PendingNode } from '@rampart/contracts';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { type NodeQuery, useNodeActions, useNodeList, useNodePlaces, usePendingNodes } from './api.ts';
import { InstallModal } from './InstallModal.tsx';
import { NODES_LOCALES } from './locales/bundle.ts';
import { NodeDrawer, type NodeEditing } from './NodeDrawer.tsx';
import { nodeColumns, pendingColumns } from './nodeColumns.tsx';

/** Spec §2 /node/list (admin:node): the nodes, the agents waiting to be accepted, and how to add one. */
export const Component = () => {
  const { t, i18n } = useLocales(NODES_LOCALES);
  const totalText = useTotalText();
  const feedback = useFeedback();
  const [query, setQuery] = useState<NodeQuery>({ page: 1, limit: 20 });
  const [tab, setTab] = useState('nodes');
  const [editing, setEditing] = useState<NodeEditing | null>(null);
  const [installing, setInstalling] = useState(false);
  const nodes = useNodeList(query);
  const pending = usePendingNodes();
  const groups = useNodePlaces('node-groups');
  const regions = useNodePlaces('regions');
  const actions = useNodeActions();
  const places = { groups: groups.data ?? [], regions: regions.data ?? [] };
  const waiting = pending.data ?? [];

  const nodesTable = (
    <Table<NodeView>
      rowKey="id"
      size="middle"
      data-testid="nodes-table"
      loading={nodes.isFetching && !nodes.data}
      dataSource={nodes.data?.list ?? []}
      columns={nodeColumns(t, i18n.language, places, {
        edit: (node) => setEditing({ node }),
        setEnabled: async (node, enabled) => {
          await actions.update(node.id, { enabled });
          feedback.success(t('nodes.done.saved'));
        },
        setMaintenance: async (node, maintenance) => {
          await actions.update(node.id, { maintenance });
          feedback.success(t(maintenance ? 'nodes.done.maintaining' : 'nodes.done.saved'));
        },
        remove: async (node) => {
          await actions.remove(node.id);
          feedback.success(t('nodes.done.deleted'));
        },
      })}
      scroll={{ x: 'max-content' }}
      pagination={{
        current: query.page,
        pageSize: query.limit,
        total: nodes.data?.total ?? 0,
        showSizeChanger: true,
        showTotal: totalText,
      }}
      onChange={(pagination) => setQuery({ page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 })}
    />
  );
  const pendingTable = (
    <Table<PendingNode>
      rowKey="id"
      size="middle"
      data-testid="pending-table"
      loading={pending.isFetching && !pending.data}
      dataSource={waiting}
      locale={{ emptyText: t('nodes.pending.empty') }}
      columns={pendingColumns(t, i18n.language, {
        accept: (entry) => setEditing({ pending: entry }),
        reject: async (entry) => {
          await actions.reject(entry.id);
          feedback.success(t('nodes.done.rejected'));
        },
      })}
      scroll={{ x: 'max-content' }}
      pagination={false}
    />
  );

  return (
    <section data-testid="node-list-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        tabBarExtraContent={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setInstalling(true)}>
            {t('nodes.list.add')}
          </Button>
        }
        items={[
          { key: 'nodes', label: t('nodes.tab.nodes'), children: nodesTable },
          { key: 'pending', label: t('nodes.tab.pending', { count: waiting.length }), children: pendingTable },
        ]}
      />
      {editing && (
        <NodeDrawer
          editing={editing}
          groups={places.groups}
          regions={places.regions}
          onClose={() => setEditing(null)}
        />
      )}
      {installing && <InstallModal onClose={() => setInstalling(false)} />}
    </section>
  );
};
