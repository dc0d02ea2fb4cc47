import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type UserBatch = { action: 'enable' | 'disable' } | { action: 'group'; groupId: number };

interface UserBatchBarProps {
  count: number;
  groups: readonly { id: number; name: string }[];
  onRun: (batch: UserBatch) => Promise<void>;
}

/** Enable, disable or move the selected users; each asks first. */
export const UserBatchBar = ({ count, groups, onRun }: UserBatchBarProps) => {
  const { t } = useTranslation();
  const [groupId, setGroupId] = useState<number | undefined>();
  const confirm = (action: 'enable' | 'disable') => (
    <Popconfirm
      title={t(action === 'enable' ? 'users.batch.confirmEnable' : 'users.batch.confirmDisable', { count })}
      okText={t('users.confirm.ok')}
      cancelText={t('users.confirm.cancel')}
      okButtonProps={{ danger: action === 'disable' }}
      onConfirm={() => onRun({ action }).catch(() => undefined)}
    >
      <Button danger={action === 'disable'} data-testid={`users-batch-${action}`}>
        {t(`users.batch.${action}`)}
      </Button>
    </Popconfirm>
  );
  return (
    <Space wrap data-testid="users-batch-bar">
      <span>{t('users.batch.selected', { count })}</span>
      {confirm('enable')}
      {confirm('disable')}
      <Select<number>
        aria-label={t('users.batch.moveTo')}
        placeholder={t('users.batch.moveTo')}
        style={{ width: 180 }}
        value={groupId}
        onChange={setGroupId}
        options={[{ value: 0, label: t('users.list.noGroup') }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
      />
      <Popconfirm
        title={t('users.batch.confirmMove', { count })}
        okText={t('users.confirm.ok')}
        cancelText={t('users.confirm.cancel')}
        onConfirm={() =>
          groupId === undefined ? undefined : onRun({ action: 'group', groupId }).catch(() => undefined)
        }
      >
        <Button disabled={groupId === undefined}>{t('users.batch.move')}</Button>
      </Popconfirm>
    </Space>
  );
};
