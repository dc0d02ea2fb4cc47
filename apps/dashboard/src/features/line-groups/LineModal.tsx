import { LineCode, ObjectName } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal/Modal';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useLineGroupActions } from './api.ts';
import { LINE_GROUPS_LOCALES } from './locales/bundle.ts';

type Provider = '' | 'powerdns' | 'cloudflare' | 'dnspod' | 'alidns';
interface LineDraft {
  provider: Provider;
  code: string;
  name_zh: string;
  name_en: string;
}

const FIELDS = ['provider', 'code', 'name_zh', 'name_en'] as const;
const CODE = new RegExp((LineCode as unknown as { pattern: string }).pattern);
const NAME = new RegExp((ObjectName as unknown as { pattern: string }).pattern);

/** Adds a line by hand: its code as the provider names it, and its names in both languages. */
export const LineModal = ({ onClose }: { onClose: () => void }) => {
  const { t } = useLocales(LINE_GROUPS_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useLineGroupActions();
  const [form] = Form.useForm<LineDraft>();
  const [saving, setSaving] = useState(false);
  const required = (field: string) => ({ required: true, message: t('dnsSettings.lines.required', { field }) });
  const text = (name: 'code' | 'name_zh' | 'name_en', label: string, pattern: RegExp) => (
    <Form.Item
      name={name}
      label={label}
      rules={[required(label), { max: 64 }, { pattern, message: t('lineGroups.drawer.nameRule') }]}
    >
      <Input autoComplete="off" />
    </Form.Item>
  );

  const save = async (draft: LineDraft) => {
    setSaving(true);
    try {
      await actions.createLine(draft, { onError: fieldErrorHandler(form, http, FIELDS) });
      feedback.success(t('dnsSettings.lines.added'));
      onClose();
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('dnsSettings.lines.save')}
      confirmLoading={saving}
      title={t('dnsSettings.lines.addTitle')}
      destroyOnHidden
    >
      <Form<LineDraft>
        form={form}
        layout="vertical"
        onFinish={save}
        initialValues={{ provider: 'dnspod', code: '', name_zh: '', name_en: '' }}
      >
        <Form.Item name="provider" label={t('dnsSettings.lines.provider')}>
          <Select<Provider>
            aria-label={t('dnsSettings.lines.provider')}
            options={[
              { value: '', label: t('dnsSettings.lines.allProviders') },
              ...(['powerdns', 'cloudflare', 'dnspod', 'alidns'] as const).map((value) => ({ value, label: value })),
            ]}
          />
        </Form.Item>
        {text('code', t('dnsSettings.lines.code'), CODE)}
        {text('name_zh', t('dnsSettings.lines.nameZh'), NAME)}
        {text('name_en', t('dnsSettings.lines.nameEn'), NAME)}
      </Form>
    </Modal>
  );
};
