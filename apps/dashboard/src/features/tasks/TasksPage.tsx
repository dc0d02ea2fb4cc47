import { useLocales } from '../../shared/i18n/useLocales.ts';
import { TASKS_LOCALES } from './locales/bundle.ts';
import { ScheduledTaskTable } from './ScheduledTaskTable.tsx';
import { TaskQueueTable } from './TaskQueueTable.tsx';

/** Spec §2 /sys/task (admin:sys): the scheduled tasks (run now), and the queue of background tasks. */
export const Component = () => {
  const { t } = useLocales(TASKS_LOCALES);
  return (
    <section data-testid="sys-task-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <h2 style={{ fontSize: 16, fontWeight: 600, marginTop: 0 }}>{t('tasks.scheduledTitle')}</h2>
      <ScheduledTaskTable />
      <h2 style={{ fontSize: 16, fontWeight: 600, marginTop: 32 }}>{t('tasks.queueTitle')}</h2>
      <TaskQueueTable />
    </section>
  );
};
