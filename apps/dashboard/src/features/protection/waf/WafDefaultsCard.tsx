import { useQueryClient } from '@tanstack/react-query';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { fieldErrorHandler } from '../../sites/serverErrors.ts';
import { saveWafDefaults, useWafDefaults, type WafDefaults } from '../api.ts';
import { formPath } from '../model/formPath.ts';
import { type WafValues, wafSettings, wafValues } from '../model/waf.ts';
import { WafFields } from '../shared/WafFields.tsx';

const WafDefaultsForm = ({ defaults }: { defaults: WafDefaults }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<WafValues>();
  const [saving, submitting] = useSubmitting();
  const save = async (values: WafValues) => {
    await submitting(async () => {
      const onError = fieldErrorHandler(
        form,
        http,
        ['mode', 'paranoia', 'exclusionsText', 'inspectStatic', 'staticExts'],
        formPath,
      );
      await saveWafDefaults(http, wafSettings(values), { onError });
      await queryClient.invalidateQueries({ queryKey: ['protection', 'waf-defaults'] });
      feedback.success(t('protection.saved'));
    });
  };
  return (
    <Form<WafValues> form={form} layout="vertical" initialValues={wafValues(defaults)} onFinish={save}>
      <WafFields />
      <Button type="primary" htmlType="submit" loading={saving} data-testid="waf-defaults-save">
        {t('protection.save')}
      </Button>
    </Form>
  );
};

/** The platform's WAF defaults (configs global-0-waf-defaults). */
export const WafDefaultsCard = () => {
  const { t } = useTranslation();
  const defaults = useWafDefaults();
  return (
    <Card title={t('protection.wafConfig.defaults')}>
      <p style={{ color: 'rgba(0,0,0,0.45)' }}>{t('protection.wafConfig.defaultsHelp')}</p>
      {defaults.data ? <WafDefaultsForm defaults={defaults.data} /> : <Spin spinning={defaults.isPending} />}
    </Card>
  );
};
