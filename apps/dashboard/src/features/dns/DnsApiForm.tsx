import type { DnsApi } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { edgeRules } from '../sites/edgeRules.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useDnsActions } from './api.ts';
import { createDnsApiBody, type DnsApiValues, updateDnsApiBody } from './dnsApiPayload.ts';

const FIELDS = ['name', 'url', 'api_key', 'server_id'];

/** Adds a PowerDNS account (`dnsApi` null) or renames one; its key is never shown, only replaced. */
export const DnsApiForm = ({ dnsApi, onDone }: { dnsApi: DnsApi | null; onDone: () => void }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useDnsActions();
  const [form] = Form.useForm<DnsApiValues>();
  const [saving, setSaving] = useState(false);
  const adding = dnsApi === null;
  const keyTyped = Boolean(Form.useWatch('api_key', form));

  const submit = async (values: DnsApiValues) => {
    setSaving(true);
    const onError = fieldErrorHandler(form, http, FIELDS, (name) =>
      name[0] === 'credentials' && name[1] ? [String(name[1])] : name,
    );
    try {
      if (dnsApi) await actions.update(dnsApi.id, updateDnsApiBody(values), { onError });
      else await actions.create(createDnsApiBody(values), { onError });
      feedback.success(t('dns.api.saved'));
      onDone();
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  };

  const credentialsRequired = adding || keyTyped;
  return (
    <Form<DnsApiValues> form={form} layout="vertical" initialValues={{ name: dnsApi?.name }} onFinish={submit}>
      <Form.Item
        name="name"
        label={t('dns.api.name')}
        rules={[{ required: true, message: t('dns.api.rule.name') }, ...edgeRules(t).name]}
      >
        <Input />
      </Form.Item>
      {!adding && <p>{t('dns.api.keepCredentials')}</p>}
      <Form.Item
        name="url"
        label={t('dns.api.url')}
        rules={[{ required: credentialsRequired, type: 'url', message: t('dns.api.rule.url') }]}
      >
        <Input placeholder="https://ns.example.com:8081" />
      </Form.Item>
      <Form.Item
        name="api_key"
        label={t('dns.api.apiKey')}
        rules={[{ required: adding, pattern: /^[\x21-\x7e]+$/, message: t('dns.api.rule.apiKey') }]}
      >
        <Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="server_id" label={t('dns.api.serverId')} extra={t('dns.api.serverIdHelp')}>
        <Input placeholder="localhost" />
      </Form.Item>
      <Button onClick={onDone} style={{ marginRight: 8 }}>
        {t('sites.cancel')}
      </Button>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="dnsapi-save">
        {t('dns.api.save')}
      </Button>
    </Form>
  );
};
