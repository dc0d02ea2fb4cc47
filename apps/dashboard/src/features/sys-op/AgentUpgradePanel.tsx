import type { AgentUpgrade } from '@rampart/contracts';
import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import Progress from 'antd/es/progress';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { formatLogTime } from '../account-logs/logTime.ts';
import { type AgentRelease, useAgentUpgrades, useSysOpActions } from './api.ts';
import { BundleForm } from './BundleForm.tsx';
import { SYS_OP_LOCALES } from './locales/bundle.ts';
import { formatBytes } from './rules.ts';
import { StartUpgradeForm } from './StartUpgradeForm.tsx';
import { UpgradeLogModal } from './UpgradeLogModal.tsx';

const STATE_COLOR: Record<AgentUpgrade['state'], string> = {
  running: 'processing',
  done: 'success',
  halted: 'error',
  cancelled: 'default',
};
const heading = { fontSize: 16, fontWeight: 600 } as const;

/** Agent releases (uploaded or the bundled one) and their rollouts in waves, with each rollout's log. */
export const AgentUpgradePanel = () => {
  const { t, i18n } = useLocales(SYS_OP_LOCALES);
  const feedback = useFeedback();
  const upgrades = useAgentUpgrades();
  const actions = useSysOpActions();
  const [logId, setLogId] = useState<number | null>(null);
  const releases = upgrades.data?.releases ?? [];

  return (
    <div data-testid="agent-upgrades">
      <h3 style={heading}>{t('sysOp.release.title')}</h3>
      <Table<AgentRelease>
        rowKey="id"
        size="small"
        dataSource={releases}
        pagination={false}
        columns={[
          { key: 'version', title: t('sysOp.release.column.version'), dataIndex: 'version' },
          {
            key: 'sha256',
            title: t('sysOp.release.column.sha256'),
            render: (_, release) => <code style={{ fontSize: 12 }}>{release.sha256}</code>,
          },
          { key: 'size', title: t('sysOp.release.column.size'), render: (_, release) => formatBytes(release.size) },
          {
            key: 'source',
            title: t('sysOp.release.column.source'),
            render: (_, release) => t(`sysOp.release.source.${release.source}`),
          },
          {
            key: 'created',
            title: t('sysOp.release.column.created'),
            render: (_, release) => formatLogTime(release.created_at, i18n.language),
          },
        ]}
      />
      <h4 style={{ marginTop: 16 }}>{t('sysOp.release.upload')}</h4>
      <BundleForm
        testId="agent-release-form"
        submitText={t('sysOp.release.submit')}
        onSubmit={async (bundle, options) => {
          await actions.uploadRelease(bundle, options);
          feedback.success(t('sysOp.release.uploaded', { version: bundle.version }));
        }}
      />
      <Button
        onClick={() =>
          void actions
            .registerBuiltIn()
            .then((release) => feedback.success(t('sysOp.release.builtInDone', { version: release.version })))
            .catch(() => undefined)
        }
      >
        {t('sysOp.release.builtIn')}
      </Button>

      <h3 style={{ ...heading, marginTop: 32 }}>{t('sysOp.upgrade.title')}</h3>
      <p style={{ color: 'rgba(0,0,0,0.55)' }}>{t('sysOp.upgrade.waveHelp')}</p>
      <StartUpgradeForm releases={releases} />
      <Table<AgentUpgrade>
        rowKey="id"
        size="small"
        data-testid="agent-upgrade-list"
        loading={upgrades.isPending}
        dataSource={upgrades.data?.list ?? []}
        pagination={false}
        columns={[
          { key: 'id', title: t('sysOp.upgrade.column.id'), dataIndex: 'id' },
          { key: 'version', title: t('sysOp.upgrade.column.version'), dataIndex: 'version' },
          {
            key: 'state',
            title: t('sysOp.upgrade.column.state'),
            render: (_, upgrade) => (
              <Tag color={STATE_COLOR[upgrade.state]}>{t(`sysOp.upgrade.state.${upgrade.state}`)}</Tag>
            ),
          },
          {
            key: 'progress',
            title: t('sysOp.upgrade.column.progress'),
            render: (_, { progress }) => (
              <div style={{ minWidth: 220 }}>
                <Progress
                  size="small"
                  percent={Math.round(
                    ((progress.total - progress.waiting - progress.running) / Math.max(1, progress.total)) * 100,
                  )}
                  success={{ percent: Math.round((progress.done / Math.max(1, progress.total)) * 100) }}
                />
                <span style={{ fontSize: 12 }}>{t('sysOp.upgrade.progress', progress)}</span>
              </div>
            ),
          },
          { key: 'wave', title: t('sysOp.upgrade.column.wave'), render: (_, upgrade) => Math.max(0, upgrade.wave) + 1 },
          { key: 'reason', title: t('sysOp.upgrade.column.reason'), dataIndex: 'reason' },
          {
            key: 'created',
            title: t('sysOp.upgrade.column.created'),
            render: (_, upgrade) => formatLogTime(upgrade.created_at, i18n.language),
          },
          {
            key: 'actions',
            title: '',
            render: (_, upgrade) => (
              <Space>
                <Button size="small" onClick={() => setLogId(upgrade.id)}>
                  {t('sysOp.upgrade.log')}
                </Button>
                {upgrade.state === 'running' && (
                  <Popconfirm
                    title={t('sysOp.upgrade.cancelConfirm')}
                    onConfirm={() => actions.cancelUpgrade(upgrade.id)}
                  >
                    <Button size="small" danger>
                      {t('sysOp.upgrade.cancel')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <UpgradeLogModal id={logId} onClose={() => setLogId(null)} />
    </div>
  );
};
