import type { DnsApi, DnsProviderName } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { edgeRules } from '../sites/edgeRules.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useDnsActions } from './api.ts';
import { createDnsApiBody, type DnsApiValues, SECRET_FIELD, updateDnsApiBody } from './dnsApiPayload.ts';
import { ProviderFields } from './ProviderFields.tsx';

const FIELDS = [
  'name',
  'provider',
  'url',
  'api_key',
  'server_id',
  'api_token',
  'secret_id',
  'secret_key',
  'access_key_id',
  'access_key_secret',
];
export const PROVIDERS: DnsProviderName[] = ['powerdns', 'cloudflare', 'dnspod', 'alidns'];

/** Adds a DNS provider account (`dnsApi` null) or renames one; its credentials are never shown, only replaced. */
export const DnsApiForm = ({ dnsApi, onDone }: { dnsApi: DnsApi | null; onDone: () => void }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useDnsActions();
  const [form] = Form.useForm<DnsApiValues>();
  const [saving, submitting] = useSubmitting();
  const adding = dnsApi === null;
  const provider = (Form.useWatch('provider', form) ?? dnsApi?.provider ?? 'powerdns') as DnsProviderName;
  const secretTyped = Boolean(Form.useWatch(SECRET_FIELD[provider], form));

  const submit = async (values: DnsApiValues) => {
    const onError = fieldErrorHandler(form, http, FIELDS, (name) =>
      name[0] === 'credentials' && name[1] ? [String(name[1])] : name,
    );
    await submitting(async () => {
      if (dnsApi) await actions.update(dnsApi.id, updateDnsApiBody(values, provider), { onError });
      else await actions.create(createDnsApiBody(values), { onError });
      feedback.success(t('dns.api.saved'));
      onDone();
    });
  };

  return (
    <Form<DnsApiValues>
      form={form}
      layout="vertical"
      initialValues={{ name: dnsApi?.name, provider: dnsApi?.provider ?? 'powerdns' }}
      onFinish={submit}
    >
      <Form.Item
        name="name"
        label={t('dns.api.name')}
        rules={[{ required: true, message: t('dns.api.rule.name') }, ...edgeRules(t).name]}
      >
        <Input />
      </Form.Item>
      <Form.Item name="provider" label={t('dns.api.provider')}>
        <Select
          disabled={!adding}
          options={PROVIDERS.map((value) => ({ value, label: t(`dns.api.providerName.${value}`) }))}
        />
      </Form.Item>
      {!adding && <p>{t('dns.api.keepCredentials')}</p>}
      <ProviderFields provider={provider} required={adding || secretTyped} />
      <Button onClick={onDone} style={{ marginRight: 8 }}>
        {t('sites.cancel')}
      </Button>
      <Button type="primary" htmlType="submit" loading={saving} data-testid="dnsapi-save">
        {t('dns.api.save')}
      </Button>
    </Form>
  );
};
