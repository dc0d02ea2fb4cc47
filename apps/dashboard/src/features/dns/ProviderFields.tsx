import type { DnsProviderName } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useTranslation } from 'react-i18next';

const PRINTABLE = /^[\x21-\x7e]+$/;

/** The credential fields of one provider; `required` while adding, or once a new secret is typed. */
export const ProviderFields = ({ provider, required }: { provider: DnsProviderName; required: boolean }) => {
  const { t } = useTranslation();
  const secret = (name: string, label: string, rule: string) => (
    <Form.Item name={name} label={t(label)} rules={[{ required, pattern: PRINTABLE, message: t(rule) }]}>
      <Password autoComplete="new-password" />
    </Form.Item>
  );
  if (provider === 'cloudflare') return secret('api_token', 'dns.api.apiToken', 'dns.api.rule.apiToken');
  if (provider === 'alidns') {
    return (
      <>
        <Form.Item
          name="access_key_id"
          label={t('dns.api.accessKeyId')}
          rules={[{ required, pattern: PRINTABLE, message: t('dns.api.rule.accessKeyId') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        {secret('access_key_secret', 'dns.api.accessKeySecret', 'dns.api.rule.accessKeySecret')}
      </>
    );
  }
  if (provider === 'dnspod') {
    return (
      <>
        <Form.Item
          name="secret_id"
          label={t('dns.api.secretId')}
          rules={[{ required, pattern: PRINTABLE, message: t('dns.api.rule.secretId') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        {secret('secret_key', 'dns.api.secretKey', 'dns.api.rule.secretKey')}
      </>
    );
  }
  return (
    <>
      <Form.Item
        name="url"
        label={t('dns.api.url')}
        rules={[{ required, type: 'url', message: t('dns.api.rule.url') }]}
      >
        <Input placeholder="https://ns.example.com:8081" />
      </Form.Item>
      {secret('api_key', 'dns.api.apiKey', 'dns.api.rule.apiKey')}
      <Form.Item name="server_id" label={t('dns.api.serverId')} extra={t('dns.api.serverIdHelp')}>
        <Input placeholder="localhost" />
      </Form.Item>
    </>
  );
};
