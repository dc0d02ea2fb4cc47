import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export type BatchRequest = { action: 'enable' | 'disable' | 'delete' } | { action: 'move'; groupId: number };

interface BatchBarProps {
  count: number;
  groups: readonly { id: number; name: string }[];
  onRun: (request: BatchRequest) => Promise<void>;
}

/** Actions on the selected rows; each asks first, since the server applies them all or none. */
export const BatchBar = ({ count, groups, onRun }: BatchBarProps) => {
  const { t } = useTranslation();
  const [groupId, setGroupId] = useState<number | undefined>();
  const confirm = (action: 'enable' | 'disable' | 'delete', danger = false) => (
    <Popconfirm
      title={t(`sites.batch.confirm.${action}`, { count })}
      okText={t('sites.confirm')}
      cancelText={t('sites.cancel')}
      okButtonProps={{ danger }}
      onConfirm={() => onRun({ action }).catch(() => undefined)}
    >
      <Button danger={danger} disabled={count === 0}>
        {t(`sites.batch.${action}`)}
      </Button>
    </Popconfirm>
  );
  return (
    <Space wrap data-testid="batch-bar">
      <span>{t('sites.batch.selected', { count })}</span>
      {confirm('enable')}
      {confirm('disable')}
      {confirm('delete', true)}
      <Select<number>
        aria-label={t('sites.batch.moveTo')}
        placeholder={t('sites.batch.moveTo')}
        style={{ width: 180 }}
        value={groupId}
        onChange={setGroupId}
        options={[{ value: 0, label: t('sites.group.none') }, ...groups.map((g) => ({ value: g.id, label: g.name }))]}
      />
      <Popconfirm
        title={t('sites.batch.confirm.move', { count })}
        okText={t('sites.confirm')}
        cancelText={t('sites.cancel')}
        onConfirm={() =>
          groupId === undefined ? undefined : onRun({ action: 'move', groupId }).catch(() => undefined)
        }
      >
        <Button disabled={count === 0 || groupId === undefined}>{t('sites.batch.move')}</Button>
      </Popconfirm>
    </Space>
  );
};
