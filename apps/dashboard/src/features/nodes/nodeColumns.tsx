import type { NodeView, PendingNode } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Tooltip from 'antd/es/tooltip';
import type { TFunction } from 'i18next';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';
import type { NodePlace } from './api.ts';
import { clockWarning } from './nodeClock.ts';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** A link-styled button behind a confirmation; `id` names it for tests (`node-delete:edge-1`). */
const ask = (t: TFunction, id: string, title: string, label: string, onConfirm: () => Promise<unknown>) => (
  <Popconfirm
    title={title}
    okText={t('nodes.confirm.ok')}
    cancelText={t('nodes.confirm.cancel')}
    okButtonProps={{ danger: true }}
    onConfirm={() => onConfirm().catch(() => undefined)}
  >
    <Button type="link" size="small" danger data-testid={id}>
      {label}
    </Button>
  </Popconfirm>
);

const placeName = (places: readonly NodePlace[], id: number | null) =>
  id === null ? '—' : (places.find((place) => place.id === id)?.name ?? `#${id}`);

export interface NodeRowActions {
  edit: (node: NodeView) => void;
  setEnabled: (node: NodeView, enabled: boolean) => Promise<unknown>;
  /** Into maintenance (drained from DNS first) or back. */
  setMaintenance: (node: NodeView, maintenance: boolean) => Promise<unknown>;
  remove: (node: NodeView) => Promise<unknown>;
}

/** Name, IPs, line group, region, state, config version, agent, last seen, and the row's actions. */
export const nodeColumns = (
  t: TFunction,
  language: string,
  places: { groups: readonly NodePlace[]; regions: readonly NodePlace[] },
  actions: NodeRowActions,
): ColumnsType<NodeView> => {
  const format = dateTimeFormat(language);
  return [
    { key: 'id', dataIndex: 'id', title: 'ID', width: 70 },
    { key: 'name', dataIndex: 'name', title: t('nodes.column.name'), onCell: () => NO_WRAP },
    {
      key: 'ips',
      dataIndex: 'ips',
      title: t('nodes.column.ips'),
      onCell: () => NO_WRAP,
      render: (ips: string[]) => ips.map((ip) => <div key={ip}>{ip}</div>),
    },
    {
      key: 'group',
      dataIndex: 'group_id',
      title: t('nodes.column.group'),
      render: (id: number | null) => placeName(places.groups, id),
    },
    {
      key: 'region',
      dataIndex: 'region_id',
      title: t('nodes.column.region'),
      render: (id: number | null) => placeName(places.regions, id),
    },
    {
      key: 'status',
      title: t('nodes.column.status'),
      render: (_, node) => {
        const state = !node.enabled ? 'disabled' : node.maintenance ? 'maintenance' : node.status;
        const color =
          state === 'online' ? 'green' : state === 'offline' ? 'red' : state === 'maintenance' ? 'gold' : undefined;
        const clock = clockWarning(node.clock_offset_seconds);
        return (
          <Space size={4} wrap={false}>
            <Tag color={color} data-testid={`node-status:${node.name}`}>
              {t(`nodes.status.${state}`)}
            </Tag>
            {node.apply_errors.length > 0 && (
              <Tooltip title={node.apply_errors.map((entry) => `${entry.kind} ${entry.id}: ${entry.error}`).join('\n')}>
                <Tag color="orange">{t('nodes.errors', { count: node.apply_errors.length })}</Tag>
              </Tooltip>
            )}
            {clock && (
              <Tooltip title={t(`nodes.clock.${clock.direction}.${clock.unit}`, { count: clock.amount })}>
                <Tag color="orange" data-testid={`node-clock:${node.name}`}>
                  {t('nodes.clock.tag')}
                </Tag>
              </Tooltip>
            )}
          </Space>
        );
      },
    },
    { key: 'config', dataIndex: 'applied_version', title: t('nodes.column.config') },
    { key: 'agent', dataIndex: 'agent_version', title: t('nodes.column.agent'), onCell: () => NO_WRAP },
    {
      key: 'last_seen',
      dataIndex: 'last_seen_at',
      title: t('nodes.column.lastSeen'),
      onCell: () => NO_WRAP,
      render: (at: string | null) => (at === null ? t('nodes.status.never') : format.format(new Date(at))),
    },
    {
      key: 'actions',
      title: t('nodes.column.actions'),
      fixed: 'right',
      onCell: () => NO_WRAP,
      render: (_, node) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => actions.edit(node)} data-testid={`node-edit:${node.name}`}>
            {t('nodes.action.edit')}
          </Button>
          {node.enabled ? (
            ask(
              t,
              `node-disable:${node.name}`,
              t('nodes.confirm.disable', { name: node.name }),
              t('nodes.action.disable'),
              () => actions.setEnabled(node, false),
            )
          ) : (
            <Button
              type="link"
              size="small"
              onClick={() => actions.setEnabled(node, true).catch(() => undefined)}
              data-testid={`node-enable:${node.name}`}
            >
              {t('nodes.action.enable')}
            </Button>
          )}
          {node.maintenance ? (
            <Button
              type="link"
              size="small"
              onClick={() => actions.setMaintenance(node, false).catch(() => undefined)}
              data-testid={`node-end-maintenance:${node.name}`}
            >
              {t('nodes.action.endMaintenance')}
            </Button>
          ) : (
            ask(
              t,
              `node-maintain:${node.name}`,
              t('nodes.confirm.maintain', { name: node.name }),
              t('nodes.action.maintain'),
              () => actions.setMaintenance(node, true),
            )
          )}
          {ask(
            t,
            `node-delete:${node.name}`,
            t('nodes.confirm.delete', { name: node.name }),
            t('nodes.action.delete'),
            () => actions.remove(node),
          )}
        </Space>
      ),
    },
  ];
};

export interface PendingRowActions {
  accept: (pending: PendingNode) => void;
  reject: (pending: PendingNode) => Promise<unknown>;
}

/** Host name, reported IPs, where it registered from, agent version, when, accept or reject. */
export const pendingColumns = (
  t: TFunction,
  language: string,
  actions: PendingRowActions,
): ColumnsType<PendingNode> => {
  const format = dateTimeFormat(language);
  return [
    { key: 'hostname', dataIndex: 'hostname', title: t('nodes.column.hostname'), onCell: () => NO_WRAP },
    {
      key: 'ips',
      dataIndex: 'ips',
      title: t('nodes.column.ips'),
      onCell: () => NO_WRAP,
      render: (ips: string[]) => ips.map((ip) => <div key={ip}>{ip}</div>),
    },
    { key: 'from', dataIndex: 'client_ip', title: t('nodes.column.from'), onCell: () => NO_WRAP },
    { key: 'agent', dataIndex: 'agent_version', title: t('nodes.column.agent') },
    {
      key: 'created_at',
      dataIndex: 'created_at',
      title: t('nodes.column.registered'),
      onCell: () => NO_WRAP,
      render: (at: string) => format.format(new Date(at)),
    },
    {
      key: 'actions',
      title: t('nodes.column.actions'),
      onCell: () => NO_WRAP,
      render: (_, pending) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => actions.accept(pending)}
            data-testid={`pending-accept:${pending.hostname}`}
          >
            {t('nodes.action.accept')}
          </Button>
          {ask(
            t,
            `pending-reject:${pending.hostname}`,
            t('nodes.confirm.reject', { name: pending.hostname }),
            t('nodes.action.reject'),
            () => actions.reject(pending),
          )}
        </Space>
      ),
    },
  ];
};
