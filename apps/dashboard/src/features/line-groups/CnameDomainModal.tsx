import { type DnsApi, DOMAIN_PATTERN } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal/Modal';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { type CnameDomain, useLineGroupActions } from './api.ts';
import { LINE_GROUPS_LOCALES } from './locales/bundle.ts';

interface DomainDraft {
  domain: string;
  dnsapi_id: number;
  zone: string;
  is_default: boolean;
  note: string;
}

const FIELDS = ['domain', 'dnsapi_id', 'zone', 'is_default', 'note'] as const;
const DOMAIN = new RegExp(DOMAIN_PATTERN);

/** Adds a CNAME domain, or changes the DNS API account and zone it is published through. */
export const CnameDomainModal = ({
  domain,
  accounts,
  onClose,
}: {
  /** null: adding one. */
  domain: CnameDomain | null;
  accounts: readonly DnsApi[];
  onClose: () => void;
}) => {
  const { t } = useLocales(LINE_GROUPS_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useLineGroupActions();
  const [form] = Form.useForm<DomainDraft>();
  const [saving, setSaving] = useState(false);
  const required = (field: string) => ({ required: true, message: t('dnsSettings.domains.required', { field }) });

  const save = async (draft: DomainDraft) => {
    const change = {
      dnsapi_id: draft.dnsapi_id || null,
      zone: draft.zone.trim(),
      is_default: draft.is_default,
      note: draft.note,
    };
    const onError = fieldErrorHandler(form, http, FIELDS);
    setSaving(true);
    try {
      if (domain) await actions.updateCnameDomain(domain.id, change, { onError });
      else await actions.createCnameDomain({ domain: draft.domain.trim(), ...change }, { onError });
      feedback.success(t('dnsSettings.domains.saved'));
      onClose();
    } catch {
      // Shown next to the field or as a popup by onError.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('dnsSettings.domains.save')}
      confirmLoading={saving}
      title={domain ? t('dnsSettings.domains.editTitle', { domain: domain.domain }) : t('dnsSettings.domains.addTitle')}
      destroyOnHidden
    >
      <Form<DomainDraft>
        form={form}
        layout="vertical"
        onFinish={save}
        initialValues={{
          domain: domain?.domain ?? '',
          dnsapi_id: domain?.dnsapi_id ?? 0,
          zone: domain?.zone ?? '',
          is_default: domain?.is_default ?? false,
          note: domain?.note ?? '',
        }}
      >
        <Form.Item
          name="domain"
          label={t('dnsSettings.domains.domain')}
          rules={[
            required(t('dnsSettings.domains.domain')),
            { pattern: DOMAIN, message: t('dnsSettings.domains.domainRule') },
          ]}
        >
          <Input autoComplete="off" disabled={domain !== null} />
        </Form.Item>
        <Form.Item name="dnsapi_id" label={t('dnsSettings.domains.account')}>
          <Select<number>
            aria-label={t('dnsSettings.domains.account')}
            options={[
              { value: 0, label: t('dnsSettings.domains.none') },
              ...accounts.map((account) => ({ value: account.id, label: `${account.name} (${account.provider})` })),
            ]}
          />
        </Form.Item>
        <Form.Item
          name="zone"
          label={t('dnsSettings.domains.zone')}
          extra={t('dnsSettings.domains.zoneHelp')}
          rules={[{ pattern: DOMAIN, message: t('dnsSettings.domains.zoneRule') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="is_default" label={t('dnsSettings.domains.isDefault')} valuePropName="checked">
          <Switch aria-label={t('dnsSettings.domains.isDefault')} />
        </Form.Item>
        <Form.Item name="note" label={t('dnsSettings.domains.note')} rules={[{ max: 200 }]}>
          <Input autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
