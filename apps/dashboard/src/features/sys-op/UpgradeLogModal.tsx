import type { UpgradeNodeLog } from '@rampart/contracts';
import Modal from 'antd/es/modal';
import Progress from 'antd/es/progress';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { formatLogTime } from '../account-logs/logTime.ts';
import { useUpgradeLog } from './api.ts';

const NODE_COLOR: Record<UpgradeNodeLog['state'], string> = {
  waiting: 'default',
  pending: 'processing',
  sent: 'processing',
  done: 'success',
  rolled_back: 'warning',
  failed: 'error',
  timeout: 'error',
  cancelled: 'default',
};

/** GET /v1/agent/upgrades/log/{id}: each node's wave, state and log, asked again while the rollout runs. */
export const UpgradeLogModal = ({ id, onClose }: { id: number | null; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const log = useUpgradeLog(id);
  const upgrade = log.data?.upgrade;
  const settled = upgrade ? upgrade.progress.total - upgrade.progress.waiting - upgrade.progress.running : 0;
  return (
    <Modal
      open={id !== null}
      onCancel={onClose}
      footer={null}
      width={960}
      title={upgrade ? t('sysOp.upgrade.logTitle', { id: upgrade.id, version: upgrade.version }) : ''}
    >
      {upgrade && (
        <>
          <Progress percent={Math.round((settled / Math.max(1, upgrade.progress.total)) * 100)} />
          <p>{t('sysOp.upgrade.progress', upgrade.progress)}</p>
          {upgrade.reason && <p>{upgrade.reason}</p>}
        </>
      )}
      <Table<UpgradeNodeLog>
        rowKey="node_id"
        size="small"
        data-testid="upgrade-log"
        loading={log.isPending && id !== null}
        dataSource={log.data?.nodes ?? []}
        pagination={{ pageSize: 20 }}
        columns={[
          { key: 'name', title: t('sysOp.upgrade.node.name'), dataIndex: 'name' },
          { key: 'wave', title: t('sysOp.upgrade.node.wave'), render: (_, node) => node.wave ?? '—' },
          {
            key: 'state',
            title: t('sysOp.upgrade.node.state'),
            render: (_, node) => (
              <Tag color={NODE_COLOR[node.state]}>{t(`sysOp.upgrade.node.states.${node.state}`)}</Tag>
            ),
          },
          { key: 'from', title: t('sysOp.upgrade.node.from'), dataIndex: 'from_version' },
          {
            key: 'log',
            title: t('sysOp.upgrade.node.log'),
            render: (_, node) => <pre style={{ margin: 0, whiteSpace: 'pre-wrap', fontSize: 12 }}>{node.log}</pre>,
          },
          {
            key: 'updated',
            title: t('sysOp.upgrade.node.updated'),
            render: (_, node) => formatLogTime(node.updated_at, i18n.language),
          },
        ]}
      />
    </Modal>
  );
};
