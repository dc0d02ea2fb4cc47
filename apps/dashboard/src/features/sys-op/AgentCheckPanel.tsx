import type { AgentCheckNode } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { type AgentCheck, useSysOpActions } from './api.ts';
import { SYS_OP_LOCALES } from './locales/bundle.ts';
import { formatBytes } from './rules.ts';

/** How long the check call waits for the agents; answers arriving later are read again once. */
const WAIT_SECONDS = 10;

/** POST /v1/maintain/agent-check: every agent's self-test, one row per node. */
export const AgentCheckPanel = () => {
  const { t } = useLocales(SYS_OP_LOCALES);
  const actions = useSysOpActions();
  const [check, setCheck] = useState<AgentCheck | null>(null);
  const [running, submitting] = useSubmitting();

  const run = () =>
    submitting(async () => {
      let result = await actions.agentCheck(WAIT_SECONDS);
      setCheck(result);
      if (result.nodes.some((node) => node.state === 'pending')) {
        result = await actions.agentCheckResult(result.id);
        setCheck(result);
      }
    });

  const ok = check?.nodes.filter((node) => node.ok).length ?? 0;
  return (
    <div data-testid="agent-check">
      <p style={{ color: 'rgba(0,0,0,0.55)' }}>{t('sysOp.check.help')}</p>
      <Button type="primary" loading={running} onClick={() => void run()}>
        {t('sysOp.check.run')}
      </Button>
      {check && (
        <Alert
          style={{ margin: '16px 0' }}
          type={ok === check.nodes.length ? 'success' : 'warning'}
          message={t('sysOp.check.done', { ok, total: check.nodes.length })}
        />
      )}
      <Table<AgentCheckNode>
        rowKey="node_id"
        size="small"
        style={{ marginTop: 16 }}
        dataSource={check?.nodes ?? []}
        locale={{ emptyText: t('sysOp.check.empty') }}
        pagination={false}
        columns={[
          { key: 'node', title: t('sysOp.check.column.node'), dataIndex: 'name' },
          {
            key: 'result',
            title: t('sysOp.check.column.result'),
            render: (_, node) =>
              node.state === 'done' ? (
                <Tag color={node.ok ? 'success' : 'warning'}>
                  {t(node.ok ? 'sysOp.check.state.ok' : 'sysOp.check.state.problem')}
                </Tag>
              ) : (
                <Tag color={node.state === 'failed' ? 'error' : 'processing'}>
                  {t(`sysOp.check.state.${node.state}`)}
                </Tag>
              ),
          },
          {
            key: 'nginx',
            title: t('sysOp.check.column.nginx'),
            render: (_, node) =>
              node.nginx_config_ok === null
                ? '—'
                : !node.nginx_config_ok
                  ? t('sysOp.check.nginxConfigBad')
                  : node.nginx_running
                    ? t('sysOp.check.nginxOk')
                    : t('sysOp.check.nginxStopped'),
          },
          { key: 'disk', title: t('sysOp.check.column.disk'), render: (_, node) => formatBytes(node.disk_free_bytes) },
          {
            key: 'skew',
            title: t('sysOp.check.column.skew'),
            render: (_, node) => (node.clock_skew_ms === null ? '—' : `${node.clock_skew_ms} ms`),
          },
          {
            key: 'version',
            title: t('sysOp.check.column.version'),
            render: (_, node) => `${node.applied_version ?? '—'} / ${node.expected_version}`,
          },
          { key: 'agent', title: t('sysOp.check.column.agent'), dataIndex: 'agent_version' },
          {
            key: 'problems',
            title: t('sysOp.check.column.problems'),
            render: (_, node) => node.problems.map((problem) => <div key={problem}>{problem}</div>),
          },
        ]}
      />
    </div>
  );
};
