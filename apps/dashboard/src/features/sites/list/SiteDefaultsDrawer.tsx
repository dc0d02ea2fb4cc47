import { useQuery, useQueryClient } from '@tanstack/react-query';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { CacheRulesEditor, HeadersEditor } from '../edit/ListEditors.tsx';
import { fieldErrorHandler } from '../serverErrors.ts';
import { type SiteDefaultsValues, siteDefaultsValues, type UserConfig, userConfigBody } from '../siteDefaults.ts';

const FIELDS = [
  'balance',
  'origin_protocol',
  'http2',
  'websocket',
  'gzip',
  'request_headers',
  'response_headers',
  'cache_rules',
];

const ToggleSelect = ({ name, label }: { name: 'http2' | 'websocket' | 'gzip'; label: string }) => {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={label}>
      <Select
        aria-label={label}
        options={(['inherit', 'on', 'off'] as const).map((value) => ({ value, label: t(`sites.defaults.${value}`) }))}
      />
    </Form.Item>
  );
};

const DefaultsForm = ({ config, onSaved }: { config: UserConfig; onSaved: () => void }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SiteDefaultsValues>();
  const [saving, submitting] = useSubmitting();
  const save = async (values: SiteDefaultsValues) => {
    await submitting(async () => {
      // The master names fields as `site_defaults.<field>`; the form's fields are the inner names.
      const onError = fieldErrorHandler(form, http, FIELDS, (name) =>
        name[0] === 'site_defaults' ? name.slice(1) : name,
      );
      await http.put<UserConfig>('/v1/user-configs', userConfigBody(values), { onError });
      await queryClient.invalidateQueries({ queryKey: ['user-configs'] });
      feedback.success(t('sites.defaults.saved'));
      onSaved();
    });
  };
  const inherit = { value: '', label: t('sites.defaults.inherit') };
  return (
    <Form<SiteDefaultsValues>
      form={form}
      layout="vertical"
      initialValues={siteDefaultsValues(config.site_defaults)}
      onFinish={save}
    >
      <Form.Item name="balance" label={t('sites.field.balance')} getValueProps={(value) => ({ value: value ?? '' })}>
        <Select
          aria-label={t('sites.field.balance')}
          options={[
            inherit,
            ...(['round_robin', 'ip_hash', 'weighted'] as const).map((value) => ({
              value,
              label: t(`sites.balance.${value}`),
            })),
          ]}
        />
      </Form.Item>
      <Form.Item
        name="origin_protocol"
        label={t('sites.field.originProtocol')}
        getValueProps={(value) => ({ value: value ?? '' })}
      >
        <Select
          aria-label={t('sites.field.originProtocol')}
          options={[
            inherit,
            ...(['http', 'https', 'follow'] as const).map((value) => ({ value, label: t(`sites.protocol.${value}`) })),
          ]}
        />
      </Form.Item>
      <ToggleSelect name="http2" label={t('sites.field.http2')} />
      <ToggleSelect name="websocket" label={t('sites.field.websocket')} />
      <ToggleSelect name="gzip" label={t('sites.field.gzip')} />
      <h4>{t('sites.edit.section.cache')}</h4>
      <CacheRulesEditor />
      <h4>{t('sites.header.request')}</h4>
      <HeadersEditor name="request_headers" />
      <h4>{t('sites.header.response')}</h4>
      <HeadersEditor name="response_headers" />
      <Button type="primary" htmlType="submit" loading={saving} data-testid="site-defaults-save">
        {t('sites.save')}
      </Button>
    </Form>
  );
};

/** GET/PUT /v1/user-configs: the settings the user's new sites start with. */
export const SiteDefaultsDrawer = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const config = useQuery({
    queryKey: ['user-configs'],
    enabled: open,
    queryFn: ({ signal }) => http.get<UserConfig>('/v1/user-configs', { signal }),
  });
  return (
    <Drawer open={open} onClose={onClose} title={t('sites.defaults.title')} size={640} destroyOnHidden>
      <p>{t('sites.defaults.help')}</p>
      {config.data ? <DefaultsForm config={config.data} onSaved={onClose} /> : <Spin spinning={config.isPending} />}
    </Drawer>
  );
};
