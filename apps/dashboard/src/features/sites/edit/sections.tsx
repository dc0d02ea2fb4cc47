import type { Cert } from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import type { ListPage } from '../api.ts';
import { edgeRules } from '../edgeRules.ts';
import { GroupSelect } from '../list/GroupSelect.tsx';
import { OriginsEditor } from '../origins/OriginsEditor.tsx';
import { LineGroupField } from './LineGroupField.tsx';

const Toggle = ({ name, label, disabled }: { name: string; label: string; disabled?: boolean }) => (
  <Form.Item name={name} label={label} valuePropName="checked">
    <Switch disabled={disabled} />
  </Form.Item>
);

export const BasicSection = () => {
  const { t } = useTranslation();
  const rules = edgeRules(t);
  return (
    <>
      <Form.Item
        name="domainsText"
        label={t('sites.field.domains')}
        extra={t('sites.field.domainsHelp')}
        rules={[rules.domains]}
      >
        <TextArea rows={4} />
      </Form.Item>
      <Form.Item name="group_id" label={t('sites.field.group')}>
        <GroupSelect />
      </Form.Item>
      <LineGroupField />
      <Form.Item name="name" label={t('sites.field.name')} rules={rules.name}>
        <Input />
      </Form.Item>
      <Toggle name="enabled" label={t('sites.field.enabled')} />
    </>
  );
};

export const OriginsSection = () => {
  const { t } = useTranslation();
  const rules = edgeRules(t);
  return (
    <>
      <Form.Item label={t('sites.field.origins')} required>
        <OriginsEditor />
      </Form.Item>
      <Form.Item name="balance" label={t('sites.field.balance')}>
        <Select
          options={(['round_robin', 'ip_hash', 'weighted'] as const).map((value) => ({
            value,
            label: t(`sites.balance.${value}`),
          }))}
        />
      </Form.Item>
      <Form.Item name="origin_protocol" label={t('sites.field.originProtocol')}>
        <Select
          options={(['http', 'https', 'follow'] as const).map((value) => ({
            value,
            label: t(`sites.protocol.${value}`),
          }))}
        />
      </Form.Item>
      <Form.Item
        name="origin_host"
        label={t('sites.field.originHost')}
        extra={t('sites.field.originHostHelp')}
        rules={rules.hostHeader}
      >
        <Input />
      </Form.Item>
    </>
  );
};

/** `httpsLocked`: the site's package does not include HTTPS, so its switch stays off. */
export const HttpsSection = ({ httpsLocked = false }: { httpsLocked?: boolean }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const certs = useQuery({
    queryKey: ['certs', 'all'],
    queryFn: ({ signal }) => http.get<ListPage<Cert>>('/v1/certs', { query: { page: 1, limit: 1000 }, signal }),
  });
  return (
    <>
      <Form.Item label={t('sites.field.cert')} extra={<Link to="/site/cert">{t('sites.field.certUpload')}</Link>}>
        <Form.Item
          name="cert_id"
          noStyle
          getValueProps={(value: number | null) => ({ value: value ?? 0 })}
          normalize={(value: number) => value || null}
        >
          <Select
            aria-label={t('sites.field.cert')}
            loading={certs.isPending}
            options={[
              { value: 0, label: t('sites.field.certNone') },
              ...(certs.data?.list ?? []).map((cert) => ({
                value: cert.id,
                label: `${cert.name} (${cert.names.join(', ')})`,
              })),
            ]}
          />
        </Form.Item>
      </Form.Item>
      <Toggle name="http_listen" label={t('sites.field.httpListen')} />
      <Toggle name="https_listen" label={t('sites.field.httpsListen')} disabled={httpsLocked} />
      <Toggle name="force_https" label={t('sites.field.forceHttps')} />
      <Toggle name="hsts" label={t('sites.field.hsts')} />
      <Toggle name="http2" label={t('sites.field.http2')} />
      <Toggle name="websocket" label={t('sites.field.websocket')} />
      <Toggle name="gzip" label={t('sites.field.gzip')} />
    </>
  );
};
