import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Modal from 'antd/es/modal/Modal';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useDnsApis } from '../dns/api.ts';
import { edgeRules } from '../sites/edgeRules.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { type AcmeValues, acmeCertBody, wildcardOf } from './acmeRequest.ts';
import { useCertActions } from './api.ts';

const FIELDS = ['name', 'domains', 'challenge', 'dnsapi_id'];

/**
 * Asks the master for an ACME certificate: domains, HTTP-01 (answered by the edges, for domains of
 * the user's sites) or DNS-01 (a TXT record through one of the user's DNS APIs, wildcards too).
 */
export const CertRequestModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useCertActions();
  const [form] = Form.useForm<AcmeValues>();
  const [saving, submitting] = useSubmitting();
  const challenge = Form.useWatch('challenge', form) ?? 'http-01';
  const dnsApis = useDnsApis(open && challenge === 'dns-01');
  const rules = edgeRules(t);

  const submit = async (values: AcmeValues) => {
    // `domains/2: …` names one line of the box: the message shows under the box.
    const onError = fieldErrorHandler(form, http, FIELDS, (name) => (name[0] === 'domains' ? ['domains'] : name));
    await submitting(async () => {
      await actions.request(acmeCertBody(values), { onError });
      feedback.success(t('certs.acme.requested'));
      form.resetFields();
      onClose();
    });
  };

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('certs.acme.title')}
      width={640}
      footer={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="cert-request-submit">
          {t('certs.acme.submit')}
        </Button>
      }
    >
      <Form<AcmeValues> form={form} layout="vertical" initialValues={{ challenge: 'http-01' }} onFinish={submit}>
        <Form.Item
          name="domains"
          label={t('certs.acme.domains')}
          extra={t('certs.acme.domainsHelp')}
          rules={[
            rules.domains,
            {
              validator: async (_rule, value: string | undefined) => {
                const wildcard = wildcardOf(value);
                if (challenge === 'http-01' && wildcard)
                  throw new Error(t('certs.acme.rule.wildcard', { domain: wildcard }));
              },
            },
          ]}
          dependencies={['challenge']}
        >
          <TextArea rows={4} placeholder={'www.example.com\nexample.com'} />
        </Form.Item>
        <Form.Item name="challenge" label={t('certs.acme.challenge')} rules={[{ required: true }]}>
          <Radio.Group
            options={[
              { value: 'http-01', label: t('certs.acme.http01') },
              { value: 'dns-01', label: t('certs.acme.dns01') },
            ]}
          />
        </Form.Item>
        <p style={{ color: 'rgba(0,0,0,0.55)', marginTop: -8 }}>
          {challenge === 'http-01' ? t('certs.acme.http01Help') : t('certs.acme.dns01Help')}
        </p>
        {challenge === 'dns-01' && (
          <Form.Item
            name="dnsapi_id"
            label={t('certs.acme.dnsApi')}
            rules={[{ required: true, message: t('certs.acme.rule.dnsApi') }]}
          >
            <Select
              placeholder={t('certs.acme.dnsApi')}
              loading={dnsApis.isPending}
              notFoundContent={t('certs.acme.noDnsApi')}
              options={(dnsApis.data ?? []).map((dnsApi) => ({ value: dnsApi.id, label: dnsApi.name }))}
            />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('certs.column.name')} extra={t('certs.acme.nameHelp')} rules={rules.name}>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
};
