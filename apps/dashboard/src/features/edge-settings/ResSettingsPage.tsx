import type { EdgeResSettings } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { ConfigCard } from './ConfigCard.tsx';
import { EnforcementCard } from './EnforcementCard.tsx';
import { grid, NumberItem } from './fields.tsx';
import { EDGE_SETTINGS_LOCALES } from './locales/bundle.ts';
import { MastersCard } from './MastersCard.tsx';

// The server's rule (AbsoluteDir): empty, or absolute without . or .. segments.
const CACHE_PATH = /^(?:|(?!.*\/\.\.?(?:\/|$))\/[A-Za-z0-9._/-]{0,254})$/;
const FIELDS = ['cache_max_size_mb', 'cache_path', 'log_spool_mb', 'max_open_files'] as const;
const same = (value: EdgeResSettings) => value;

/**
 * Spec §2 /config/res (admin:config): the resources every edge may use (configs global-0-edge-res),
 * what the edges do with sites of inactive packages (global-0-edge-enforcement), and the masters
 * their agents use (global-0-agent-masters).
 */
export const Component = () => {
  const { t } = useLocales(EDGE_SETTINGS_LOCALES);
  const f = (key: string) => t(`edgeSettings.res.${key}`);
  return (
    <>
      <ConfigCard name="res" title={f('title')} help={f('help')} toForm={same} fromForm={same} fields={FIELDS}>
        <div style={grid}>
          <NumberItem
            name="cache_max_size_mb"
            label={f('cacheSize')}
            extra={f('cacheSizeHelp')}
            min={0}
            max={16777216}
            unit="MB"
          />
          <Form.Item
            name="cache_path"
            label={f('cachePath')}
            extra={f('cachePathHelp')}
            rules={[{ pattern: CACHE_PATH, max: 255, message: f('cachePathInvalid') }]}
          >
            <Input aria-label={f('cachePath')} placeholder="/var/cache/rampart" style={{ maxWidth: 360 }} />
          </Form.Item>
          <NumberItem
            name="log_spool_mb"
            label={f('logSpool')}
            extra={f('logSpoolHelp')}
            min={1}
            max={1000000}
            unit="MB"
          />
          <NumberItem
            name="max_open_files"
            label={f('maxOpenFiles')}
            extra={f('maxOpenFilesHelp')}
            min={1024}
            max={1048576}
          />
        </div>
      </ConfigCard>
      <EnforcementCard />
      <MastersCard />
    </>
  );
};
