import type { SysOp } from '@rampart/contracts';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { formatLogTime } from '../account-logs/logTime.ts';

const STATE_COLOR: Record<SysOp['state'], string> = {
  running: 'processing',
  waiting: 'processing',
  done: 'success',
  failed: 'error',
  aborted: 'warning',
};

export const OpStateTag = ({ state }: { state: SysOp['state'] }) => {
  const { t } = useTranslation();
  return <Tag color={STATE_COLOR[state]}>{t(`sysOp.op.state.${state}`)}</Tag>;
};

/** The log lines of a master upgrade or transfer, oldest first. */
export const OpLog = ({ op, testId }: { op: SysOp | null | undefined; testId: string }) => {
  const { t, i18n } = useTranslation();
  if (!op) return <p data-testid={testId}>{t('sysOp.op.none')}</p>;
  return (
    <div data-testid={testId}>
      <p>
        #{op.id} {op.version} <OpStateTag state={op.state} />
      </p>
      <pre
        style={{
          background: '#fafafa',
          padding: 12,
          borderRadius: 6,
          whiteSpace: 'pre-wrap',
          maxHeight: 360,
          overflow: 'auto',
        }}
      >
        {op.log
          .map((line) => `${formatLogTime(line.time, i18n.language)}  ${line.level.toUpperCase()}  ${line.text}`)
          .join('\n')}
      </pre>
    </div>
  );
};
