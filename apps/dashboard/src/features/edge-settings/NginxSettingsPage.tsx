import { DEFAULT_EDGE_NGINX, type EdgeNginxSettings } from '@rampart/contracts';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { ConfigCard } from './ConfigCard.tsx';
import { grid, NumberItem, SwitchItem } from './fields.tsx';
import { EDGE_SETTINGS_LOCALES } from './locales/bundle.ts';

// The server's pattern (packages/contracts/src/edge/edge-settings.ts, MimeType).
const MIME_TYPE = /^[a-z0-9][a-z0-9.+-]{0,40}\/[a-z0-9][a-z0-9.+-]{0,80}$/;

type NginxForm = Omit<EdgeNginxSettings, 'worker_processes'> & { worker_processes: number };

/** 0 in the form is `auto`: the select offers it beside the numbers. */
const toForm = (value: EdgeNginxSettings): NginxForm => ({
  ...value,
  worker_processes: value.worker_processes === 'auto' ? 0 : value.worker_processes,
});
const fromForm = (values: NginxForm): EdgeNginxSettings => ({
  ...DEFAULT_EDGE_NGINX,
  ...values,
  worker_processes: values.worker_processes === 0 ? 'auto' : values.worker_processes,
});

const FIELDS = [...Object.keys(DEFAULT_EDGE_NGINX)];

/** Spec §2 /config/nginx (admin:config): the web server of every edge (configs global-0-edge-nginx). */
export const Component = () => {
  const { t } = useLocales(EDGE_SETTINGS_LOCALES);
  const f = (key: string) => t(`edgeSettings.nginx.${key}`);
  return (
    <ConfigCard name="nginx" title={f('title')} help={f('help')} toForm={toForm} fromForm={fromForm} fields={FIELDS}>
      <div style={grid}>
        <Form.Item name="worker_processes" label={f('workerProcesses')} extra={f('workerProcessesHelp')}>
          <Select
            aria-label={f('workerProcesses')}
            style={{ width: 200 }}
            options={[
              { value: 0, label: f('auto') },
              ...Array.from({ length: 64 }, (_, i) => ({ value: i + 1, label: String(i + 1) })),
            ]}
          />
        </Form.Item>
        <NumberItem
          name="worker_connections"
          label={f('workerConnections')}
          extra={f('workerConnectionsHelp')}
          min={256}
          max={65535}
        />
        <NumberItem
          name="keepalive_timeout"
          label={f('keepaliveTimeout')}
          extra={f('keepaliveTimeoutHelp')}
          min={0}
          max={3600}
          unit="s"
        />
        <NumberItem
          name="keepalive_requests"
          label={f('keepaliveRequests')}
          extra={f('keepaliveRequestsHelp')}
          min={1}
          max={100000}
        />
        <NumberItem
          name="client_max_body_size_mb"
          label={f('clientMaxBody')}
          extra={f('clientMaxBodyHelp')}
          min={0}
          max={102400}
          unit="MB"
        />
        <NumberItem
          name="client_body_buffer_kb"
          label={f('clientBodyBuffer')}
          extra={f('clientBodyBufferHelp')}
          min={1}
          max={65536}
          unit="KB"
        />
        <NumberItem
          name="client_header_buffer_kb"
          label={f('clientHeaderBuffer')}
          extra={f('clientHeaderBufferHelp')}
          min={1}
          max={64}
          unit="KB"
        />
        <NumberItem
          name="large_header_buffers"
          label={f('largeHeaderBuffers')}
          extra={f('largeHeaderBuffersHelp')}
          min={1}
          max={64}
        />
        <NumberItem
          name="large_header_buffer_kb"
          label={f('largeHeaderBufferSize')}
          extra={f('largeHeaderBufferSizeHelp')}
          min={1}
          max={64}
          unit="KB"
        />
        <NumberItem
          name="proxy_connect_timeout"
          label={f('proxyConnect')}
          extra={f('proxyConnectHelp')}
          min={1}
          max={300}
          unit="s"
        />
        <NumberItem
          name="proxy_read_timeout"
          label={f('proxyRead')}
          extra={f('proxyReadHelp')}
          min={1}
          max={3600}
          unit="s"
        />
        <NumberItem
          name="proxy_send_timeout"
          label={f('proxySend')}
          extra={f('proxySendHelp')}
          min={1}
          max={3600}
          unit="s"
        />
        <SwitchItem name="http2" label={f('http2')} extra={f('http2Help')} />
        <SwitchItem name="gzip" label={f('gzip')} extra={f('gzipHelp')} />
        <NumberItem name="gzip_level" label={f('gzipLevel')} extra={f('gzipLevelHelp')} min={1} max={9} />
      </div>
      <Form.Item
        name="gzip_types"
        label={f('gzipTypes')}
        extra={f('gzipTypesHelp')}
        rules={[
          {
            validator: async (_rule, value: string[] | undefined) => {
              const bad = (value ?? []).find((type) => !MIME_TYPE.test(type));
              if (bad !== undefined) throw new Error(t('edgeSettings.nginx.gzipTypeInvalid', { type: bad }));
              if ((value ?? []).length > 64) throw new Error(t('edgeSettings.nginx.gzipTypesTooMany'));
            },
          },
        ]}
      >
        <Select mode="tags" aria-label={f('gzipTypes')} tokenSeparators={[' ', ',']} style={{ maxWidth: 720 }} />
      </Form.Item>
    </ConfigCard>
  );
};
