import type { Stream } from '@rampart/contracts';
import Button from 'antd/es/button';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { NameList } from '../../shared/table/NameList.tsx';
import { ownerColumn } from '../../shared/table/ownerColumn.tsx';

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

/** No header wraps ("分/组"): the table scrolls sideways before a title breaks. */
const wholeHeaders = <T,>(columns: ColumnsType<T>): ColumnsType<T> =>
  columns.map((column) => ({ ...column, onHeaderCell: () => NO_WRAP }));

/** Listen port, protocol, origins, name, group, owner (admins), status, and the edit actions; no name wraps. */
export const streamColumns = (
  t: TFunction,
  groups: readonly { id: number; name: string }[],
  onEdit: (stream: Stream) => void,
  admin = false,
): ColumnsType<Stream> =>
  wholeHeaders([
    { key: 'id', dataIndex: 'id', title: 'ID', width: 80 },
    {
      key: 'listen_port',
      dataIndex: 'listen_port',
      title: t('streams.field.listenPort'),
      render: (port: number, stream) => (
        <Link to={`/stream/list/${stream.id}`} data-testid={`stream-link:${stream.id}`}>
          {port}
        </Link>
      ),
    },
    {
      key: 'protocol',
      dataIndex: 'protocol',
      title: t('streams.field.protocol'),
      render: (protocol: string) => <Tag>{protocol.toUpperCase()}</Tag>,
    },
    {
      key: 'origins',
      dataIndex: 'origins',
      title: t('sites.column.origins'),
      render: (origins: Stream['origins']) => (
        <NameList names={origins.map((origin) => `${origin.address}:${origin.port}`)} />
      ),
    },
    { key: 'name', dataIndex: 'name', title: t('sites.field.name'), onCell: () => NO_WRAP },
    {
      key: 'group',
      dataIndex: 'group_id',
      title: t('sites.column.group'),
      onCell: () => NO_WRAP,
      render: (groupId: number | null) => groups.find((group) => group.id === groupId)?.name ?? '—',
    },
    // Admins see every user's streams.
    ...(admin ? [ownerColumn<Stream>(t)] : []),
    {
      key: 'enabled',
      dataIndex: 'enabled',
      title: t('sites.column.status'),
      render: (enabled: boolean) =>
        enabled ? <Tag color="blue">{t('sites.enabled')}</Tag> : <Tag>{t('sites.disabled')}</Tag>,
    },
    {
      key: 'actions',
      title: t('streams.list.actions'),
      width: 100,
      render: (_value, stream) => (
        <Button type="link" size="small" onClick={() => onEdit(stream)}>
          {t('streams.list.edit')}
        </Button>
      ),
    },
  ]);
