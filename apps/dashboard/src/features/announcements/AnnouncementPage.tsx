import type { Announcement, AnnouncementBody } from '@rampart/contracts';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Popconfirm from 'antd/es/popconfirm';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { formatLogTime } from '../account-logs/logTime.ts';
import { AnnouncementForm } from './AnnouncementForm.tsx';
import { useAnnouncementActions, useAnnouncements } from './api.ts';
import { ANNOUNCEMENTS_LOCALES } from './locales/bundle.ts';

/** Spec §2 /sys/anno: announcements in Chinese and English, shown on the login page between two times. */
export const Component = () => {
  const { t, i18n } = useLocales(ANNOUNCEMENTS_LOCALES);
  const totalText = useTotalText();
  const feedback = useFeedback();
  const [query, setQuery] = useState<{ page: number; limit: number; active?: boolean }>({ page: 1, limit: 20 });
  const [editing, setEditing] = useState<Announcement | null | 'new'>(null);
  const announcements = useAnnouncements(query);
  const actions = useAnnouncementActions();
  const zh = i18n.language === 'zh-CN';

  const save = async (body: AnnouncementBody) => {
    if (editing === 'new') {
      const created = await actions.create(body);
      feedback.success(t('announcements.created', { count: created.recipients }));
    } else if (editing) {
      await actions.update(editing.id, body);
      feedback.success(t('announcements.saved'));
    }
  };
  const remove = async (id: number) => {
    await actions.remove(id);
    feedback.success(t('announcements.deleted'));
  };

  const columns: ColumnsType<Announcement> = [
    {
      key: 'title',
      title: t('announcements.column.title'),
      render: (_, row) => (zh ? row.title_zh : row.title_en),
    },
    {
      key: 'period',
      title: t('announcements.column.period'),
      width: 340,
      render: (_, row) =>
        `${formatLogTime(row.starts_at, i18n.language)} – ${formatLogTime(row.ends_at, i18n.language)}`,
    },
    {
      key: 'state',
      dataIndex: 'active',
      title: t('announcements.column.state'),
      width: 110,
      render: (active: boolean) =>
        active ? <Tag color="green">{t('announcements.state.active')}</Tag> : t('announcements.state.inactive'),
    },
    { key: 'recipients', dataIndex: 'recipients', title: t('announcements.column.recipients'), width: 100 },
    {
      key: 'actions',
      title: t('announcements.column.actions'),
      width: 150,
      render: (_, row) => (
        <>
          <Button type="link" size="small" onClick={() => setEditing(row)}>
            {t('announcements.edit')}
          </Button>
          <Popconfirm
            title={t('announcements.confirmDelete')}
            okText={t('announcements.confirm')}
            cancelText={t('announcements.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => remove(row.id).catch(() => undefined)}
          >
            <Button type="link" size="small" danger>
              {t('announcements.delete')}
            </Button>
          </Popconfirm>
        </>
      ),
    },
  ];

  return (
    <section data-testid="sys-anno-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}>
        <Checkbox
          checked={query.active === true}
          onChange={(event) =>
            setQuery((current) => ({ ...current, page: 1, active: event.target.checked || undefined }))
          }
        >
          {t('announcements.activeOnly')}
        </Checkbox>
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('announcements.add')}
        </Button>
      </div>
      <Table<Announcement>
        rowKey="id"
        size="small"
        data-testid="announcement-list"
        loading={announcements.isFetching}
        dataSource={announcements.data?.list ?? []}
        columns={columns}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total: announcements.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: totalText,
        }}
        onChange={(pagination) =>
          setQuery((current) => ({ ...current, page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 }))
        }
      />
      <AnnouncementForm
        open={editing !== null}
        announcement={editing === 'new' ? null : editing}
        onSave={save}
        onClose={() => setEditing(null)}
      />
    </section>
  );
};
