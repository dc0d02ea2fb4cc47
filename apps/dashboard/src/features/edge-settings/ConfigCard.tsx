import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import type { ReactNode } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { type EdgeConfigName, type EdgeConfigValues, useEdgeConfig, useEdgeConfigActions } from './api.ts';
import { EDGE_SETTINGS_LOCALES } from './locales/bundle.ts';

export interface ConfigFormProps<N extends EdgeConfigName, F extends object> {
  name: N;
  /** The form's values from the stored value, and back. */
  toForm: (value: EdgeConfigValues[N]) => F;
  fromForm: (values: F) => EdgeConfigValues[N];
  /** Top-level fields a server message may name (shown next to the field, not as a popup). */
  fields: readonly string[];
  children: ReactNode;
}

const ConfigForm = <N extends EdgeConfigName, F extends object>({
  name,
  value,
  toForm,
  fromForm,
  fields,
  children,
}: ConfigFormProps<N, F> & { value: EdgeConfigValues[N] }) => {
  const { t } = useLocales(EDGE_SETTINGS_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useEdgeConfigActions(name);
  const [form] = Form.useForm<F>();
  const [saving, submitting] = useSubmitting();
  const [resetting, resettingWith] = useSubmitting();

  const save = async (values: F) => {
    await submitting(async () => {
      await actions.save(fromForm(values), { onError: fieldErrorHandler(form, http, fields) });
      feedback.success(t('edgeSettings.saved'));
    });
  };
  const reset = async () => {
    await resettingWith(async () => {
      const fallback = await actions.reset();
      form.setFieldsValue(toForm(fallback) as Parameters<typeof form.setFieldsValue>[0]);
      feedback.success(t('edgeSettings.resetDone'));
    });
  };

  return (
    <Form<F>
      form={form}
      layout="vertical"
      initialValues={toForm(value)}
      onFinish={save}
      data-testid={`edge-${name}-form`}
    >
      {children}
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid={`edge-${name}-save`}>
          {t('edgeSettings.save')}
        </Button>
        <Popconfirm
          title={t('edgeSettings.resetTitle')}
          description={t('edgeSettings.resetText')}
          okText={t('edgeSettings.resetOk')}
          cancelText={t('edgeSettings.cancel')}
          onConfirm={() => reset()}
        >
          <Button loading={resetting} data-testid={`edge-${name}-reset`}>
            {t('edgeSettings.reset')}
          </Button>
        </Popconfirm>
      </Space>
    </Form>
  );
};

/** One configs entry as a card: what it does, its form, Save and Reset to defaults. */
export const ConfigCard = <N extends EdgeConfigName, F extends object>(
  props: ConfigFormProps<N, F> & { title: string; help: string },
) => {
  const config = useEdgeConfig(props.name);
  const { title, help, ...form } = props;
  return (
    <Card title={title} data-testid={`edge-${props.name}-page`}>
      <p style={{ color: 'rgba(0,0,0,0.45)' }}>{help}</p>
      {config.data ? <ConfigForm {...form} value={config.data} /> : <Spin spinning={config.isPending} />}
    </Card>
  );
};
