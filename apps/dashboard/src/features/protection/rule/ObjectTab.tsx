import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Popconfirm from 'antd/es/popconfirm';
import type { ColumnsType } from 'antd/es/table';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { ownerColumn } from '../../../shared/table/ownerColumn.tsx';
import { useTotalText } from '../../../shared/table/totals.ts';
import {
  isSystemRow,
  type ObjectKind,
  type ObjectQuery,
  type ObjectTypes,
  useObjectActions,
  useObjectList,
} from '../api.ts';
import { useReachesEveryUser } from '../shared/owners.ts';
import { formatTime } from '../shared/time.ts';

type Editing<Row> = { row: Row | undefined } | null;

interface ObjectTabProps<K extends ObjectKind> {
  kind: K;
  /** The kind's own columns, between the name and the last change. */
  columns: ColumnsType<ObjectTypes[K]['row']>;
  drawer: (row: ObjectTypes[K]['row'] | undefined, onClose: () => void) => ReactNode;
}

/** One kind of protection object: searched and paged by the server, added and edited in a drawer. */
export const ObjectTab = <K extends ObjectKind>({ kind, columns, drawer }: ObjectTabProps<K>) => {
  type Row = ObjectTypes[K]['row'];
  const { t, i18n } = useTranslation();
  const totalText = useTotalText();
  const feedback = useFeedback();
  const admin = useReachesEveryUser();
  const [query, setQuery] = useState<ObjectQuery>({ page: 1, limit: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Editing<Row>>(null);
  const list = useObjectList(kind, query);
  const actions = useObjectActions(kind);
  const writable = (row: Row) => admin || !isSystemRow(row);

  const removeOne = async (row: Row) => {
    await actions.remove(row.id);
    setSelected((current) => current.filter((id) => id !== row.id));
    feedback.success(t('protection.deleted'));
  };
  const removeSelected = async () => {
    await actions.removeMany(selected);
    setSelected([]);
    feedback.success(t('protection.deleted'));
  };

  const allColumns: ColumnsType<Row> = [
    { key: 'id', dataIndex: 'id', title: 'ID', width: 80 },
    {
      key: 'name',
      dataIndex: 'name',
      title: t('protection.name'),
      render: (name: string, row) => (
        <>
          {name} {isSystemRow(row) && <Tag color="gold">{t('protection.systemTag')}</Tag>}
        </>
      ),
    },
    // Admins see every user's rows.
    ...(admin ? [ownerColumn<Row>(t)] : []),
    ...columns,
    {
      key: 'updated_at',
      dataIndex: 'updated_at',
      title: t('protection.updated'),
      width: 190,
      render: (at: string | undefined) => formatTime(at, i18n.language),
    },
    {
      key: 'actions',
      title: t('protection.actions'),
      width: 160,
      render: (_value, row) => (
        <>
          <Button type="link" size="small" onClick={() => setEditing({ row })}>
            {writable(row) ? t('protection.editAction') : t('protection.viewAction')}
          </Button>
          {writable(row) && (
            <Popconfirm
              title={t('protection.confirmDelete', { name: row.name })}
              okText={t('protection.confirm')}
              cancelText={t('protection.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => removeOne(row).catch(() => undefined)}
            >
              <Button type="link" danger size="small">
                {t('protection.delete')}
              </Button>
            </Popconfirm>
          )}
        </>
      ),
    },
  ];

  return (
    <div data-testid={`protection-${kind}`}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <Input.Search
          allowClear
          aria-label={t('protection.search')}
          placeholder={t('protection.search')}
          style={{ width: 240 }}
          onSearch={(value) => setQuery((current) => ({ ...current, page: 1, name: value.trim() || undefined }))}
        />
        {selected.length > 0 && (
          <Popconfirm
            title={t('protection.confirmBatchDelete', { count: selected.length })}
            okText={t('protection.confirm')}
            cancelText={t('protection.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => removeSelected().catch(() => undefined)}
          >
            <Button danger>{t('protection.batchDelete', { count: selected.length })}</Button>
          </Popconfirm>
        )}
        <span style={{ marginLeft: 'auto' }} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ row: undefined })}>
          {t(`protection.${kind as ObjectKind}.add`)}
        </Button>
      </div>
      <Table<Row>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        dataSource={list.data?.list ?? []}
        columns={allColumns}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
          getCheckboxProps: (row) => ({ disabled: !writable(row) }),
        }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: totalText,
        }}
        onChange={(pagination) =>
          setQuery((current) => ({
            ...current,
            page: pagination.current ?? 1,
            limit: pagination.pageSize ?? current.limit,
          }))
        }
      />
      {editing && drawer(editing.row, () => setEditing(null))}
    </div>
  );
};
