import type { NodeMonitorSettings } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useSaveMonitorSettings } from './api.ts';
import { NODE_MONITOR_LOCALES } from './locales/bundle.ts';

const FIELDS = [
  'enabled',
  'probe',
  'path',
  'expected_status',
  'host',
  'interval_seconds',
  'timeout_seconds',
  'failures',
  'successes',
  'voters',
] as const;
// The same characters the server's schema allows (packages/contracts/src/health.ts).
const PATH = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*$/;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** The form of global-0-node-monitor; the ranges are the server's. */
export const MonitorSettingsForm = ({ settings }: { settings: NodeMonitorSettings }) => {
  const { t } = useLocales(NODE_MONITOR_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const save = useSaveMonitorSettings();
  const [form] = Form.useForm<NodeMonitorSettings>();
  const [saving, submitting] = useSubmitting();
  const probe = Form.useWatch('probe', form) ?? settings.probe;

  const required = { required: true, message: t('nodeMonitor.settings.required') };
  const range = (min: number, max: number) => ({
    type: 'number' as const,
    min,
    max,
    message: t('nodeMonitor.settings.range', { min, max }),
  });
  const number = (name: (typeof FIELDS)[number], label: string, min: number, max: number, step = 1) => (
    <Form.Item name={name} label={label} rules={[required, range(min, max)]}>
      <InputNumber min={min} max={max} step={step} precision={step < 1 ? 1 : 0} style={{ width: 160 }} />
    </Form.Item>
  );

  const submit = async (values: NodeMonitorSettings) => {
    await submitting(async () => {
      const onError = fieldErrorHandler(form, http, FIELDS);
      // A hidden path (TCP probes) keeps the value it had.
      await save({ ...settings, ...values }, { onError });
      feedback.success(t('nodeMonitor.settings.saved'));
    });
  };

  return (
    <Form<NodeMonitorSettings>
      form={form}
      layout="vertical"
      initialValues={settings}
      onFinish={submit}
      data-testid="monitor-settings-form"
    >
      <Form.Item name="enabled" label={t('nodeMonitor.settings.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="probe" label={t('nodeMonitor.settings.probe')} rules={[required]}>
        <Radio.Group>
          <Radio value="http">{t('nodeMonitor.settings.http')}</Radio>
          <Radio value="tcp">{t('nodeMonitor.settings.tcp')}</Radio>
        </Radio.Group>
      </Form.Item>
      {probe === 'http' && (
        <Space wrap size="large" align="start">
          <Form.Item
            name="path"
            label={t('nodeMonitor.settings.path')}
            extra={t('nodeMonitor.settings.pathHelp')}
            rules={[required, { pattern: PATH, max: 200, message: t('nodeMonitor.settings.pathInvalid') }]}
          >
            <Input style={{ width: 280 }} />
          </Form.Item>
          {number('expected_status', t('nodeMonitor.settings.expectedStatus'), 100, 599)}
          <Form.Item
            name="host"
            label={t('nodeMonitor.settings.host')}
            extra={t('nodeMonitor.settings.hostHelp')}
            rules={[{ pattern: HOST, max: 253, message: t('nodeMonitor.settings.hostInvalid') }]}
          >
            <Input style={{ width: 280 }} placeholder="www.example.com" />
          </Form.Item>
        </Space>
      )}
      <Space wrap size="large" align="start">
        {number('interval_seconds', t('nodeMonitor.settings.interval'), 0.1, 3600, 0.1)}
        <Form.Item
          name="timeout_seconds"
          label={t('nodeMonitor.settings.timeout')}
          dependencies={['interval_seconds']}
          rules={[
            required,
            range(0.1, 60),
            ({ getFieldValue }) => ({
              validator: async (_rule, value: number | null) => {
                const interval = getFieldValue('interval_seconds') as number | null;
                if (value !== null && interval !== null && value > interval) {
                  throw new Error(t('nodeMonitor.settings.timeoutLonger'));
                }
              },
            }),
          ]}
        >
          <InputNumber min={0.1} max={60} step={0.1} precision={1} style={{ width: 160 }} />
        </Form.Item>
        {number('failures', t('nodeMonitor.settings.failures'), 1, 20)}
        {number('successes', t('nodeMonitor.settings.successes'), 1, 20)}
      </Space>
      <Form.Item name="voters" label={t('nodeMonitor.settings.voters')} rules={[required]}>
        <Select
          style={{ maxWidth: 360 }}
          options={[
            { value: 'master', label: t('nodeMonitor.settings.votersMaster') },
            { value: 'nodes', label: t('nodeMonitor.settings.votersNodes') },
            { value: 'master_and_nodes', label: t('nodeMonitor.settings.votersBoth') },
          ]}
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="monitor-settings-save">
        {t('nodeMonitor.settings.save')}
      </Button>
    </Form>
  );
};
