import { SECRET_MASK } from '@rampart/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import type { Rule } from 'antd/es/form';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Popconfirm from 'antd/es/popconfirm';
import Spin from 'antd/es/spin';
import Switch from 'antd/es/switch';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { fieldErrorHandler } from '../../sites/serverErrors.ts';
import { useForgetWxpayCertificates, usePaymentActions, usePaymentSettings } from './api.ts';
import {
  isSecret,
  notifyUrl,
  PAYMENT_FIELDS,
  type PaymentField,
  type PaymentFormValues,
  type PaymentProviderName,
  paymentBody,
} from './paymentFields.ts';
import { PEM_STYLE, SecretInput } from './SecretInput.tsx';
import { WxpayCertificates } from './WxpayCertificates.tsx';

const rulesOf = (field: PaymentField, t: TFunction): Rule[] => [
  ({ getFieldValue }) => ({
    required: field.required && getFieldValue('enabled') === true,
    whitespace: true,
    message: t('paymentSettings.rule.required'),
  }),
  { max: field.max, message: t('paymentSettings.rule.max', { max: field.max }) },
];

/** One payment channel's settings (WeChat Pay or Alipay), saved and reset on their own. */
export const PaymentProviderForm = ({ provider }: { provider: PaymentProviderName }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const settings = usePaymentSettings(provider);
  const actions = usePaymentActions(provider);
  const forgetCertificates = useForgetWxpayCertificates();
  const [form] = Form.useForm<PaymentFormValues>();
  const [saving, submitting] = useSubmitting();
  const current = Form.useWatch((values: PaymentFormValues) => values, form);
  const base = current?.notify_base_url;
  const stored = settings.data as PaymentFormValues | undefined;
  useEffect(() => {
    if (stored) form.setFieldsValue(stored);
  }, [form, stored]);

  const fields = PAYMENT_FIELDS[provider];
  const save = (values: PaymentFormValues) =>
    submitting(async () => {
      const onError = fieldErrorHandler(form, http, ['enabled', ...fields.map((field) => field.name)]);
      await actions.save(paymentBody(provider, values), { onError });
      if (provider === 'wxpay') await forgetCertificates();
      feedback.success(t('paymentSettings.saved'));
    });
  const reset = () =>
    submitting(async () => {
      await actions.reset();
      feedback.success(t('paymentSettings.resetDone'));
    });

  const inputOf = ({ name, kind }: PaymentField) => {
    if (isSecret(kind)) return <SecretInput stored={stored?.[name] === SECRET_MASK} pem={kind === 'secretPem'} />;
    if (kind === 'pem') return <TextArea autoSize={{ minRows: 4, maxRows: 12 }} spellCheck={false} style={PEM_STYLE} />;
    return <Input autoComplete="off" />;
  };
  const notifyId = `payment-${provider}-notify-url`;
  const baseText = typeof base === 'string' ? base.trim() : '';

  return (
    <Card title={t(`paymentSettings.${provider}.title`)} data-testid={`payment-${provider}`}>
      {settings.isPending ? (
        <Spin />
      ) : (
        <Form<PaymentFormValues>
          form={form}
          name={`payment-${provider}`}
          layout="vertical"
          style={{ maxWidth: 640 }}
          onFinish={save}
          initialValues={stored}
        >
          <p style={{ color: 'rgba(0,0,0,0.65)' }}>{t(`paymentSettings.${provider}.intro`)}</p>
          <Form.Item name="enabled" label={t('paymentSettings.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          {fields.map((field) => (
            <Form.Item
              key={field.name}
              name={field.name}
              label={t(`paymentSettings.${provider}.field.${field.name}`)}
              extra={
                isSecret(field.kind) && current?.[field.name] === SECRET_MASK
                  ? t('paymentSettings.secretStored')
                  : t(`paymentSettings.${provider}.help.${field.name}`)
              }
              rules={rulesOf(field, t)}
              validateTrigger={isSecret(field.kind) ? 'onBlur' : 'onChange'}
            >
              {inputOf(field)}
            </Form.Item>
          ))}
          <Form.Item
            label={t('paymentSettings.notifyUrl')}
            htmlFor={notifyId}
            extra={t('paymentSettings.notifyUrlHelp')}
          >
            <Input
              id={notifyId}
              readOnly
              value={baseText === '' ? '' : notifyUrl(baseText, provider)}
              placeholder={t('paymentSettings.notifyUrlEmpty')}
            />
          </Form.Item>
          <div style={{ display: 'flex', gap: 8 }}>
            <Button type="primary" htmlType="submit" loading={saving}>
              {t('paymentSettings.save')}
            </Button>
            <Popconfirm
              title={t(`paymentSettings.${provider}.confirmReset`)}
              okText={t('paymentSettings.confirmResetOk')}
              cancelText={t('paymentSettings.cancel')}
              onConfirm={() => reset()}
            >
              <Button disabled={saving}>{t('paymentSettings.reset')}</Button>
            </Popconfirm>
          </div>
        </Form>
      )}
      {provider === 'wxpay' && (
        <WxpayCertificates usesCertificates={stored?.enabled === true && stored.platform_public_key === ''} />
      )}
    </Card>
  );
};
