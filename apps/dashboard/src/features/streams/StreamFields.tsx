import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { edgeRules } from '../sites/edgeRules.ts';
import { GroupPicker } from '../sites/list/GroupSelect.tsx';
import { OriginsEditor } from '../sites/origins/OriginsEditor.tsx';
import { useStreamGroups } from './api.ts';

export const STREAM_FIELDS = [
  'listen_port',
  'protocol',
  'origins',
  'balance',
  'proxy_protocol',
  'enabled',
  'name',
  'group_id',
];

/** The fields of a forwarding rule, for the drawer and the edit page. */
export const StreamFields = () => {
  const { t } = useTranslation();
  const rules = edgeRules(t);
  const groups = useStreamGroups();
  return (
    <>
      <div style={{ display: 'flex', gap: 12 }}>
        <Form.Item name="listen_port" label={t('streams.field.listenPort')} rules={rules.port}>
          <InputNumber precision={0} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="protocol" label={t('streams.field.protocol')}>
          <Select
            style={{ width: 110 }}
            options={[
              { value: 'tcp', label: 'TCP' },
              { value: 'udp', label: 'UDP' },
            ]}
          />
        </Form.Item>
      </div>
      <Form.Item label={t('sites.field.origins')} required>
        <OriginsEditor defaultPort={80} />
      </Form.Item>
      <Form.Item name="balance" label={t('sites.field.balance')}>
        <Select
          options={(['round_robin', 'ip_hash', 'weighted'] as const).map((value) => ({
            value,
            label: t(`sites.balance.${value}`),
          }))}
        />
      </Form.Item>
      <Form.Item name="proxy_protocol" label={t('streams.field.proxyProtocol')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="enabled" label={t('sites.field.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="group_id" label={t('sites.field.group')}>
        <GroupPicker groups={groups.data ?? []} loading={groups.isPending} />
      </Form.Item>
      <Form.Item name="name" label={t('sites.field.name')} rules={rules.name}>
        <Input />
      </Form.Item>
    </>
  );
};
