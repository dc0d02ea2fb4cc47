import type { SysOp } from '@rampart/contracts';
import Table from 'antd/es/table';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { formatLogTime } from '../account-logs/logTime.ts';
import { useMasterUpgrades, useSysOpActions } from './api.ts';
import { BundleForm } from './BundleForm.tsx';
import { SYS_OP_LOCALES } from './locales/bundle.ts';
import { OpLog, OpStateTag } from './OpLog.tsx';

/** GET, POST /v1/master/upgrades and the newest upgrade's log. */
export const MasterUpgradePanel = () => {
  const { t, i18n } = useLocales(SYS_OP_LOCALES);
  const feedback = useFeedback();
  const upgrades = useMasterUpgrades();
  const actions = useSysOpActions();
  const list = upgrades.data?.list ?? [];
  return (
    <div data-testid="master-upgrade">
      {upgrades.data && (
        <p>{t('sysOp.master.current', { version: upgrades.data.current_version, dialect: upgrades.data.dialect })}</p>
      )}
      <p style={{ color: 'rgba(0,0,0,0.55)' }}>{t('sysOp.master.help')}</p>
      <BundleForm
        testId="master-upgrade-form"
        submitText={t('sysOp.master.submit')}
        confirmText={(version) => t('sysOp.master.confirm', { version })}
        onSubmit={async (bundle, options) => {
          await actions.upgradeMaster(bundle, options);
          feedback.success(t('sysOp.master.started'));
        }}
      />
      <OpLog op={list[0]} testId="master-upgrade-log" />
      <h4>{t('sysOp.master.history')}</h4>
      <Table<SysOp>
        rowKey="id"
        size="small"
        dataSource={list}
        pagination={false}
        columns={[
          { key: 'id', title: 'ID', dataIndex: 'id' },
          { key: 'version', title: t('sysOp.release.column.version'), dataIndex: 'version' },
          { key: 'state', title: t('sysOp.upgrade.column.state'), render: (_, op) => <OpStateTag state={op.state} /> },
          {
            key: 'created',
            title: t('sysOp.upgrade.column.created'),
            render: (_, op) => formatLogTime(op.created_at, i18n.language),
          },
        ]}
      />
    </div>
  );
};
