import { DNS_TTL, type DnsTtlSettings } from '@rampart/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Space from 'antd/es/space';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useSaveDnsTtl } from './api.ts';
import { LINE_GROUPS_LOCALES } from './locales/bundle.ts';

const FIELDS = ['address_ttl', 'cname_ttl'] as const;

/** The record TTLs of /node/dns: saving them republishes every line group. */
export const DnsTtlCard = ({ ttl }: { ttl: DnsTtlSettings }) => {
  const { t } = useLocales(LINE_GROUPS_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const save = useSaveDnsTtl();
  const [form] = Form.useForm<DnsTtlSettings>();
  const [saving, submitting] = useSubmitting();
  const rules = [
    { required: true, message: t('dnsSettings.ttl.rule', DNS_TTL) },
    { type: 'integer' as const, min: DNS_TTL.min, max: DNS_TTL.max, message: t('dnsSettings.ttl.rule', DNS_TTL) },
  ];

  const submit = async (values: DnsTtlSettings) => {
    await submitting(async () => {
      const groups = await save(values, { onError: fieldErrorHandler(form, http, FIELDS) });
      const failed = groups.filter((group) => group.error || group.differences.length > 0).length;
      if (failed > 0) feedback.error(t('dnsSettings.ttl.partly', { failed, total: groups.length }));
      else feedback.success(t('dnsSettings.ttl.saved', { total: groups.length }));
    });
  };

  return (
    <Card style={{ marginBottom: 16 }} title={t('dnsSettings.ttl.title')}>
      <p style={{ color: 'rgba(0,0,0,0.55)' }}>{t('dnsSettings.ttl.help')}</p>
      <Form<DnsTtlSettings>
        form={form}
        layout="inline"
        initialValues={ttl}
        onFinish={submit}
        data-testid="dns-ttl-form"
      >
        <Form.Item name="address_ttl" label={t('dnsSettings.ttl.address')} rules={rules}>
          <InputNumber min={DNS_TTL.min} max={DNS_TTL.max} precision={0} suffix={t('dnsSettings.ttl.seconds')} />
        </Form.Item>
        <Form.Item name="cname_ttl" label={t('dnsSettings.ttl.cname')} rules={rules}>
          <InputNumber min={DNS_TTL.min} max={DNS_TTL.max} precision={0} suffix={t('dnsSettings.ttl.seconds')} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              {t('dnsSettings.ttl.save')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
};
