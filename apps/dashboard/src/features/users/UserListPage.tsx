import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { AdminUser } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Table from 'antd/es/table';
import Tabs from 'antd/es/tabs';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useSession } from '../../shared/session/session.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { CertificationReview } from '../certify/CertificationReview.tsx';
import { type UserQuery, useUserActions, useUserGroups, useUserList } from './api.ts';
import { USERS_LOCALES } from './locales/bundle.ts';
import { type UserBatch, UserBatchBar } from './UserBatchBar.tsx';
import { UserDrawer } from './UserDrawer.tsx';
import { UserFilters } from './UserFilters.tsx';
import { UserGroupsTab } from './UserGroupsTab.tsx';
import { useImpersonate } from './useImpersonate.ts';
import { userColumns } from './userColumns.tsx';

type Editing = { user: AdminUser | undefined } | null;

/** The users: searched, filtered, sorted and paged by the server, with row and batch actions. */
const UsersTab = () => {
  const { t, i18n } = useLocales(USERS_LOCALES);
  const totalText = useTotalText();
  const feedback = useFeedback();
  const selfId = useSession((state) => state.user?.id);
  const [query, setQuery] = useState<UserQuery>({ page: 1, limit: 20 });
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<Editing>(null);
  const [generated, setGenerated] = useState<{ account: string; password: string } | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const users = useUserList(query);
  const groups = useUserGroups();
  const actions = useUserActions();
  const impersonate = useImpersonate();
  const groupList = groups.data ?? [];

  const runBatch = async (batch: UserBatch) => {
    const result = await actions.batch(
      batch.action === 'group'
        ? { ids: selected, action: 'group', group_id: batch.groupId === 0 ? null : batch.groupId }
        : { ids: selected, action: batch.action },
    );
    setSelected([]);
    feedback.success(t('users.batch.done', { count: result.updated }));
  };
  const total = users.data?.total ?? 0;

  return (
    <>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center', marginBottom: 16 }}>
        <UserFilters
          groups={groupList}
          onChange={(change) => setQuery((current) => ({ ...current, ...change, page: 1 }))}
        />
        <span style={{ marginLeft: 'auto' }} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ user: undefined })}>
          {t('users.list.add')}
        </Button>
      </div>
      {selected.length > 0 && (
        <div style={{ marginBottom: 12 }}>
          <UserBatchBar count={selected.length} groups={groupList} onRun={runBatch} />
        </div>
      )}
      <Table<AdminUser>
        rowKey="id"
        size="middle"
        data-testid="users-table"
        loading={users.isFetching}
        dataSource={users.data?.list ?? []}
        columns={userColumns(t, i18n.language, {
          edit: (user) => setEditing({ user }),
          setStatus: async (user, status) => {
            await actions.update(user.id, { status });
            feedback.success(t('users.drawer.saved'));
          },
          remove: async (user) => {
            await actions.remove(user.id, { onError: (error) => setRefusal(error.message) });
          },
          impersonate,
          selfId,
        })}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(Number)),
          getCheckboxProps: (user) => ({ disabled: user.id === selfId }),
        }}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: query.page,
          pageSize: query.limit,
          total,
          showSizeChanger: true,
          showTotal: (count) => totalText(count, users.data?.total_capped),
        }}
        onChange={(pagination) =>
          setQuery((current) => ({ ...current, page: pagination.current ?? 1, limit: pagination.pageSize ?? 20 }))
        }
      />
      {editing && (
        <UserDrawer
          user={editing.user}
          groups={groupList}
          onClose={() => setEditing(null)}
          onGenerated={(account, password) => setGenerated({ account, password })}
        />
      )}
      <Modal
        open={generated !== null}
        title={t('users.generated.title', { account: generated?.account ?? '' })}
        onOk={() => setGenerated(null)}
        onCancel={() => setGenerated(null)}
        okText={t('users.generated.close')}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <p>{t('users.generated.text')}</p>
        <Typography.Paragraph copyable code data-testid="generated-password">
          {generated?.password}
        </Typography.Paragraph>
      </Modal>
      <Modal
        open={refusal !== null}
        title={t('users.refusal.title')}
        onOk={() => setRefusal(null)}
        onCancel={() => setRefusal(null)}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Alert type="warning" showIcon message={refusal} data-testid="delete-refusal" />
      </Modal>
    </>
  );
};

/** Spec §2 /sys/user (admin:user or admin:sys): users and user groups. */
export const Component = () => {
  const { t } = useLocales(USERS_LOCALES);
  return (
    <section data-testid="sys-user-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'users', label: t('users.tab.users'), children: <UsersTab /> },
          { key: 'groups', label: t('users.tab.groups'), children: <UserGroupsTab /> },
          { key: 'certify', label: t('users.tab.certify'), children: <CertificationReview /> },
        ]}
      />
    </section>
  );
};
