import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import { useState } from 'react';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import type { ListPage } from '../sites/api.ts';
import { JobForm } from './JobForm.tsx';
import { jobColumns } from './jobColumns.tsx';
import type { Job, JobType } from './jobPayload.ts';
import { CACHE_CLEAN_LOCALES } from './locales/bundle.ts';

const TYPES: readonly JobType[] = ['purge-url', 'purge-dir', 'prefetch'];

/** Spec §2 /site/cache-clean: refresh by URL or directory, pre-warm, and the job history. */
export const Component = () => {
  const { t, i18n } = useLocales(CACHE_CLEAN_LOCALES);
  const http = useHttp();
  const [page, setPage] = useState({ current: 1, size: 20 });
  const jobs = useQuery({
    queryKey: ['jobs', page],
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
    queryFn: ({ signal }) =>
      http.get<ListPage<Job>>('/v1/jobs', { query: { page: page.current, limit: page.size }, signal }),
  });
  return (
    <section data-testid="cache-clean-page" style={{ display: 'grid', gap: 16 }}>
      <Card>
        <Tabs
          items={TYPES.map((type) => ({
            key: type,
            label: t(`cacheClean.type.${type}`),
            children: <JobForm type={type} />,
          }))}
        />
      </Card>
      <Card title={t('cacheClean.history')}>
        <Table<Job>
          rowKey="id"
          size="small"
          data-testid="job-history"
          dataSource={jobs.data?.list ?? []}
          columns={jobColumns(t, i18n.language)}
          pagination={{
            current: page.current,
            pageSize: page.size,
            total: jobs.data?.total ?? 0,
            showSizeChanger: true,
          }}
          onChange={(pagination) => setPage({ current: pagination.current ?? 1, size: pagination.pageSize ?? 20 })}
        />
      </Card>
    </section>
  );
};
