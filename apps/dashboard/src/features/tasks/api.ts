import type { ScheduledTask, Task, UpdateScheduledTaskBody } from '@rampart/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

export type { ScheduledTask, Task };

const SCHEDULED_KEY = ['tasks', 'scheduled'] as const;
const TASKS_KEY = ['tasks', 'list'] as const;
// While a task runs, the page asks again this often, so its result shows when it ends.
const RUNNING_REFRESH_MS = 2000;

/** GET /v1/tasks/scheduled, asked again every few seconds while one of them runs. */
export const useScheduledTasks = () => {
  const http = useHttp();
  return useQuery({
    queryKey: SCHEDULED_KEY,
    queryFn: ({ signal }) => http.get<{ list: ScheduledTask[] }>('/v1/tasks/scheduled', { signal }),
    select: (answer) => answer.list,
    refetchInterval: (query) => (query.state.data?.list.some((task) => task.running) ? RUNNING_REFRESH_MS : false),
  });
};

export interface TaskQuery {
  page: number;
  limit: number;
  state?: Task['state'] | undefined;
}

/** GET /v1/tasks: the background tasks (certificate issuance), newest first, asked again while one is active. */
export const useTaskList = (query: TaskQuery) => {
  const http = useHttp();
  return useQuery({
    queryKey: [...TASKS_KEY, query],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => http.get<{ list: Task[]; total: number }>('/v1/tasks', { query: { ...query }, signal }),
    refetchInterval: (current) =>
      current.state.data?.list.some((task) => task.state === 'queued' || task.state === 'running')
        ? RUNNING_REFRESH_MS
        : false,
  });
};

export const useTaskActions = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['tasks'] });
  return {
    update: async (name: string, body: UpdateScheduledTaskBody) => {
      await http.put<ScheduledTask>(`/v1/tasks/scheduled/${name}`, body);
      await refresh();
    },
    runNow: async (name: string) => {
      await http.post<ScheduledTask>(`/v1/tasks/scheduled/${name}/run`);
      await refresh();
    },
    retry: async (id: number) => {
      await http.put<Task>(`/v1/tasks/${id}`, { action: 'retry' });
      await refresh();
    },
  };
};
