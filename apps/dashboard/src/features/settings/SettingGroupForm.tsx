import { SECRET_MASK, type SystemSettingGroup } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import type { Rule } from 'antd/es/form';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import InputNumber from 'antd/es/input-number';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Spin from 'antd/es/spin';
import Switch from 'antd/es/switch';
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { type SettingValues, useSettingActions, useSettingGroup } from './api.ts';
import { isHttpUrlOrEmpty, SETTING_FIELDS, type SettingField, settingValues } from './settingFields.ts';

const rulesOf = (field: SettingField, t: TFunction): Rule[] => {
  switch (field.kind) {
    case 'text':
      return [
        ...(field.required ? [{ required: true, whitespace: true, message: t('settings.rule.required') }] : []),
        { max: field.max, message: t('settings.rule.max', { max: field.max }) },
      ];
    case 'url':
      return [
        {
          validator: async (_: unknown, value: unknown) => {
            if (!isHttpUrlOrEmpty(String(value ?? '').trim())) throw new Error(t('settings.rule.url'));
          },
        },
      ];
    case 'number':
      return [
        { required: true, message: t('settings.rule.required') },
        {
          type: 'number',
          min: field.min,
          max: field.max,
          message: t('settings.rule.range', { min: field.min, max: field.max }),
        },
      ];
    case 'multi':
      return [{ required: true, type: 'array', min: 1, message: t('settings.rule.oneAtLeast') }];
    default:
      return [];
  }
};

const inputOf = (field: SettingField, t: TFunction) => {
  switch (field.kind) {
    case 'switch':
      return <Switch />;
    case 'number':
      // No min/max on the input: it would clamp silently; the rule says what is allowed instead.
      return <InputNumber precision={0} style={{ width: 200 }} />;
    case 'secret':
      return <Password autoComplete="new-password" />;
    case 'select':
    case 'multi':
      return (
        <Select
          mode={field.kind === 'multi' ? 'multiple' : undefined}
          options={field.options.map((option) => ({ value: option, label: t(`settings.option.${option}`) }))}
        />
      );
    default:
      return <Input autoComplete="off" />;
  }
};

/** One tab of /sys/setting: its fields, checked as the server will, saved on their own. */
export const SettingGroupForm = ({ group }: { group: SystemSettingGroup }) => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const settings = useSettingGroup(group);
  const actions = useSettingActions(group);
  const [form] = Form.useForm<SettingValues>();
  const [saving, submitting] = useSubmitting();
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [form, settings.data]);
  if (settings.isPending) return <Spin />;

  const save = (values: SettingValues) =>
    submitting(async () => {
      await actions.save(settingValues(group, values));
      feedback.success(t('settings.saved'));
    });
  const reset = () =>
    submitting(async () => {
      await actions.reset();
      feedback.success(t('settings.resetDone'));
    });

  return (
    <Form<SettingValues>
      form={form}
      name={`settings-${group}`}
      layout="vertical"
      style={{ maxWidth: 560 }}
      onFinish={save}
      initialValues={settings.data}
    >
      <p style={{ color: 'rgba(0,0,0,0.65)' }}>{t(`settings.intro.${group}`)}</p>
      {SETTING_FIELDS[group].map((field) => (
        <Form.Item
          key={field.name}
          name={field.name}
          label={t(`settings.field.${field.name}`)}
          extra={
            field.kind === 'secret' && settings.data?.[field.name] === SECRET_MASK
              ? t('settings.secretSaved')
              : t(`settings.help.${field.name}`)
          }
          rules={rulesOf(field, t)}
          valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
        >
          {inputOf(field, t)}
        </Form.Item>
      ))}
      {SETTING_FIELDS[group].map(
        (field) =>
          field.kind === 'switch' &&
          field.warnWhenOn && (
            <Form.Item key={`${field.name}-warning`} noStyle shouldUpdate>
              {() =>
                form.getFieldValue(field.name) === true && (
                  <Alert
                    type="warning"
                    showIcon
                    style={{ marginBottom: 16 }}
                    title={t(`settings.warning.${field.name}`)}
                  />
                )
              }
            </Form.Item>
          ),
      )}
      <div style={{ display: 'flex', gap: 8 }}>
        <Button type="primary" htmlType="submit" loading={saving}>
          {t('settings.save')}
        </Button>
        <Popconfirm
          title={t('settings.confirmReset')}
          okText={t('settings.confirm')}
          cancelText={t('settings.cancel')}
          onConfirm={() => reset()}
        >
          <Button disabled={saving}>{t('settings.reset')}</Button>
        </Popconfirm>
      </div>
    </Form>
  );
};
