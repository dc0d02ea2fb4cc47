import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatLogTime } from '../account-logs/logTime.ts';
import { type Task, type TaskQuery, useTaskActions, useTaskList } from './api.ts';

const STATE_COLOR: Record<Task['state'], string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
};

/** The background tasks (certificate issuance): state, progress, why one failed, and retry. */
export const TaskQueueTable = () => {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState<TaskQuery>({ page: 1, limit: 20 });
  const tasks = useTaskList(query);
  const actions = useTaskActions();
  return (
    <>
      <div style={{ marginBottom: 12 }}>
        <Select<Task['state'] | undefined>
          allowClear
          placeholder={t('tasks.queue.state')}
          aria-label={t('tasks.queue.state')}
          style={{ width: 160 }}
          value={query.state}
          onChange={(state) => setQuery({ ...query, page: 1, state })}
          options={(['queued', 'running', 'done', 'failed'] as const).map((state) => ({
            value: state,
            label: t(`tasks.state.${state}`),
          }))}
        />
      </div>
      <Table<Task>
        rowKey="id"
        data-testid="task-queue"
        loading={tasks.isPending}
        dataSource={tasks.data?.list ?? []}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: tasks.data?.total ?? 0,
          showSizeChanger: true,
          onChange: (page, limit) => setQuery({ ...query, page, limit }),
        }}
        columns={[
          { key: 'id', title: 'ID', dataIndex: 'id' },
          { key: 'kind', title: t('tasks.queue.kind'), dataIndex: 'kind' },
          {
            key: 'state',
            title: t('tasks.queue.state'),
            render: (_, task) => <Tag color={STATE_COLOR[task.state]}>{t(`tasks.state.${task.state}`)}</Tag>,
          },
          { key: 'progress', title: t('tasks.queue.progress'), dataIndex: 'progress' },
          { key: 'error', title: t('tasks.queue.error'), render: (_, task) => task.error || '—' },
          {
            key: 'created',
            title: t('tasks.queue.created'),
            render: (_, task) => formatLogTime(task.created_at, i18n.language),
          },
          {
            key: 'finished',
            title: t('tasks.queue.finished'),
            render: (_, task) => formatLogTime(task.finished_at, i18n.language),
          },
          {
            key: 'actions',
            title: t('tasks.column.actions'),
            render: (_, task) =>
              task.state === 'failed' ? (
                <Popconfirm
                  title={t('tasks.queue.confirmRetry')}
                  okText={t('tasks.queue.retry')}
                  cancelText={t('tasks.cancel')}
                  onConfirm={() => actions.retry(task.id).catch(() => undefined)}
                >
                  <Button size="small">{t('tasks.queue.retry')}</Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </>
  );
};
