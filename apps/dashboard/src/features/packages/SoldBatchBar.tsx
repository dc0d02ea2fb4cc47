import Button from 'antd/es/button';
import InputNumber from 'antd/es/input-number';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';

export type SoldBatch = { extend_days: number } | { state: 'active' | 'suspended' };

/** Days an extension may add (negative shortens), as PUT /v1/user-packages takes them. */
export const validExtension = (days: number | null): days is number =>
  days !== null && Number.isInteger(days) && days !== 0 && Math.abs(days) <= 3650;

/** Extends, suspends or reactivates the selected user packages; each asks first. */
export const SoldBatchBar = ({ count, onRun }: { count: number; onRun: (batch: SoldBatch) => Promise<void> }) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const [days, setDays] = useState<number | null>(30);
  const valid = validExtension(days);
  const confirm = (state: 'active' | 'suspended') => (
    <Popconfirm
      title={t(state === 'active' ? 'packages.batch.confirmReactivate' : 'packages.batch.confirmSuspend', { count })}
      okText={t('packages.common.confirm')}
      cancelText={t('packages.common.cancel')}
      okButtonProps={{ danger: state === 'suspended' }}
      onConfirm={() => onRun({ state }).catch(() => undefined)}
    >
      <Button danger={state === 'suspended'} data-testid={`sold-batch-${state}`}>
        {t(state === 'active' ? 'packages.batch.reactivate' : 'packages.batch.suspend')}
      </Button>
    </Popconfirm>
  );
  return (
    <Space wrap data-testid="sold-batch-bar">
      <span>{t('packages.batch.selected', { count })}</span>
      <Space.Compact>
        <InputNumber<number>
          aria-label={t('packages.batch.days')}
          precision={0}
          value={days}
          onChange={setDays}
          status={valid ? undefined : 'error'}
          suffix={t('packages.batch.daysUnit')}
          style={{ width: 140 }}
        />
        <Popconfirm
          title={t('packages.batch.confirmExtend', { count, days: days ?? 0 })}
          okText={t('packages.common.confirm')}
          cancelText={t('packages.common.cancel')}
          onConfirm={() => (valid ? onRun({ extend_days: days }).catch(() => undefined) : undefined)}
        >
          <Button disabled={!valid} data-testid="sold-batch-extend">
            {t('packages.batch.extend')}
          </Button>
        </Popconfirm>
      </Space.Compact>
      {!valid && <span style={{ color: '#ff4d4f' }}>{t('packages.batch.daysRule')}</span>}
      {confirm('suspended')}
      {confirm('active')}
    </Space>
  );
};
