import Button from 'antd/es/button';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { formatLogTime } from '../account-logs/logTime.ts';
import { type ScheduledTask, useScheduledTasks, useTaskActions } from './api.ts';
import { formatDuration, INTERVALS, intervalParts } from './taskText.ts';

/** The tasks the master runs on a schedule: on or off, how often, the last run, run now. */
export const ScheduledTaskTable = () => {
  const { t, i18n } = useTranslation();
  const tasks = useScheduledTasks();
  const actions = useTaskActions();
  const every = (seconds: number) => {
    const { count, unit } = intervalParts(seconds);
    return t(`tasks.every.${unit}`, { count });
  };
  const ignore = () => undefined;
  return (
    <Table<ScheduledTask>
      rowKey="name"
      data-testid="scheduled-tasks"
      loading={tasks.isPending}
      dataSource={tasks.data ?? []}
      pagination={false}
      columns={[
        {
          key: 'name',
          title: t('tasks.column.name'),
          render: (_, task) => (
            <>
              <div>{t(`tasks.name.${task.name}`, { defaultValue: task.name })}</div>
              <div style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
                {t(`tasks.about.${task.name}`, { defaultValue: '' })}
              </div>
            </>
          ),
        },
        {
          key: 'enabled',
          title: t('tasks.column.enabled'),
          render: (_, task) => (
            <Switch
              checked={task.enabled}
              aria-label={t('tasks.enable', { name: t(`tasks.name.${task.name}`, { defaultValue: task.name }) })}
              onChange={(enabled) => actions.update(task.name, { enabled }).catch(ignore)}
            />
          ),
        },
        {
          key: 'interval',
          title: t('tasks.column.interval'),
          render: (_, task) => (
            <Select
              value={task.interval_seconds}
              style={{ width: 140 }}
              aria-label={t('tasks.column.interval')}
              options={[...new Set([...INTERVALS, task.interval_seconds])]
                .sort((a, b) => a - b)
                .map((seconds) => ({ value: seconds, label: every(seconds) }))}
              onChange={(interval_seconds) => actions.update(task.name, { interval_seconds }).catch(ignore)}
            />
          ),
        },
        {
          key: 'last',
          title: t('tasks.column.lastRun'),
          render: (_, task) => formatLogTime(task.last_started_at, i18n.language),
        },
        {
          key: 'result',
          title: t('tasks.column.result'),
          render: (_, task) =>
            task.running ? (
              <Tag color="processing">{t('tasks.result.running')}</Tag>
            ) : task.last_result === null ? (
              '—'
            ) : (
              <Tag color={task.last_result === 'ok' ? 'success' : 'error'} title={task.last_error || undefined}>
                {t(`tasks.result.${task.last_result}`)}
              </Tag>
            ),
        },
        {
          key: 'duration',
          title: <span style={{ whiteSpace: 'nowrap' }}>{t('tasks.column.duration')}</span>,
          render: (_, task) => (task.running ? '—' : formatDuration(task.last_duration_ms)),
        },
        {
          key: 'next',
          title: t('tasks.column.nextRun'),
          render: (_, task) => (task.enabled ? formatLogTime(task.next_run_at, i18n.language) : t('tasks.disabled')),
        },
        {
          key: 'actions',
          title: t('tasks.column.actions'),
          render: (_, task) => (
            <Button size="small" disabled={task.running} onClick={() => actions.runNow(task.name).catch(ignore)}>
              {t('tasks.runNow')}
            </Button>
          ),
        },
      ]}
      expandable={{
        rowExpandable: (task) => task.last_error !== '',
        expandedRowRender: (task) => <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{task.last_error}</pre>,
      }}
    />
  );
};
