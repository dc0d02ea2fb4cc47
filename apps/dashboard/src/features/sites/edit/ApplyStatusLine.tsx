import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import type { UseQueryResult } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import type { ApplyStatus } from '../api.ts';

/** Which nodes have applied a site's or a stream's current version, with each node's error. */
export const ApplyStatusLine = ({ status }: { status: UseQueryResult<ApplyStatus> }) => {
  const { t } = useTranslation();
  if (!status.data) return null;
  const { version, nodes } = status.data;
  const applied = nodes.filter((node) => node.applied).length;
  const failing = nodes.filter((node) => !node.applied);
  const summary =
    nodes.length === 0
      ? t('sites.edit.noNodes', { version })
      : t('sites.edit.applied', { version, applied, total: nodes.length });
  return (
    <Alert
      data-testid="apply-status"
      style={{ marginBottom: 16 }}
      type={failing.some((node) => node.error) ? 'warning' : failing.length > 0 ? 'info' : 'success'}
      title={summary}
      description={
        failing.length > 0 && (
          <ul style={{ margin: 0, paddingLeft: 18 }}>
            {failing.map((node) => (
              <li key={node.node_id}>
                {node.error
                  ? t('sites.edit.nodeError', { name: node.name, error: node.error })
                  : t('sites.edit.nodePending', { name: node.name })}
              </li>
            ))}
          </ul>
        )
      }
      action={
        <Button
          size="small"
          icon={<ReloadOutlined />}
          loading={status.isFetching}
          onClick={() => void status.refetch()}
        >
          {t('sites.edit.refresh')}
        </Button>
      }
    />
  );
};
