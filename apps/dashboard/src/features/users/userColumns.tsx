import type { AdminUser } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import { dateTimeFormat } from '../../shared/i18n/dateTime.ts';

export interface UserRowActions {
  edit: (user: AdminUser) => void;
  setStatus: (user: AdminUser, status: 'enabled' | 'disabled') => Promise<void>;
  remove: (user: AdminUser) => Promise<void>;
  impersonate: ((user: AdminUser) => Promise<void>) | null;
  /** The signed-in admin: no action disables, deletes or impersonates oneself. */
  selfId: number | undefined;
}

const NO_WRAP = { style: { whiteSpace: 'nowrap' } } as const;

const ask = (
  t: TFunction,
  key: string,
  account: string,
  onConfirm: () => Promise<void>,
  label: string,
  danger = false,
) => (
  <Popconfirm
    title={t(`users.confirm.${key}`, { account })}
    okText={t('users.confirm.ok')}
    cancelText={t('users.confirm.cancel')}
    okButtonProps={{ danger }}
    onConfirm={() => onConfirm().catch(() => undefined)}
  >
    <Button type="link" size="small" danger={danger} data-testid={`user-${key}:${account}`}>
      {label}
    </Button>
  </Popconfirm>
);

/** Account, name, contacts, type, group, state, certified, created, and the row's actions. */
export const userColumns = (t: TFunction, language: string, actions: UserRowActions): ColumnsType<AdminUser> => {
  const format = dateTimeFormat(language);
  return [
    { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
    { key: 'account', dataIndex: 'account', title: t('users.column.account'), onCell: () => NO_WRAP },
    { key: 'name', dataIndex: 'name', title: t('users.column.name') },
    { key: 'email', dataIndex: 'email', title: t('users.column.email') },
    { key: 'phone', dataIndex: 'phone', title: t('users.column.phone'), onCell: () => NO_WRAP },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('users.column.type'),
      onCell: () => NO_WRAP,
      render: (type: 1 | 2, user) => (
        <>
          <Tag color={type === 1 ? 'purple' : undefined}>{t(`users.type.${type}`)}</Tag>
          {type === 2 && user.package_exempt && (
            <Tag color="gold" data-testid={`user-exempt:${user.account}`}>
              {t('users.list.exempt')}
            </Tag>
          )}
        </>
      ),
    },
    {
      key: 'group',
      dataIndex: 'group_name',
      title: t('users.column.group'),
      render: (name: string | null) => name ?? '—',
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('users.column.state'),
      render: (status: 'enabled' | 'disabled') => (
        <Tag color={status === 'enabled' ? 'green' : 'red'}>{t(`users.state.${status}`)}</Tag>
      ),
    },
    {
      key: 'certified',
      dataIndex: 'certified',
      title: t('users.column.certified'),
      render: (certified: boolean) => (certified ? t('users.yes') : t('users.no')),
    },
    {
      key: 'created_at',
      dataIndex: 'created_at',
      title: t('users.column.created'),
      onCell: () => NO_WRAP,
      render: (at: string) => format.format(new Date(at)),
    },
    {
      key: 'actions',
      title: t('users.column.actions'),
      // Not fixed: at 1280 px a fixed column of four actions covered the state, certified and created columns.
      onCell: () => NO_WRAP,
      render: (_, user) => {
        const self = user.id === actions.selfId;
        const next = user.status === 'enabled' ? 'disabled' : 'enabled';
        return (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              onClick={() => actions.edit(user)}
              data-testid={`user-edit:${user.account}`}
            >
              {t('users.action.edit')}
            </Button>
            {!self &&
              ask(
                t,
                next === 'enabled' ? 'enable' : 'disable',
                user.account,
                () => actions.setStatus(user, next),
                t(next === 'enabled' ? 'users.action.enable' : 'users.action.disable'),
              )}
            {!self && ask(t, 'delete', user.account, () => actions.remove(user), t('users.action.delete'), true)}
            {!self &&
              user.type === 2 &&
              user.status === 'enabled' &&
              actions.impersonate &&
              ask(
                t,
                'impersonate',
                user.account,
                () => actions.impersonate?.(user) ?? Promise.resolve(),
                t('users.action.impersonate'),
              )}
          </Space>
        );
      },
    },
  ];
};
