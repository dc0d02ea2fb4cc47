import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { usePackageActions, usePackages } from './api.ts';
import { isoOf } from './drafts.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { UserPicker } from './UserPicker.tsx';

interface GrantDraft {
  user_id: number | undefined;
  package_id: number | undefined;
  /** datetime-local text; empty: one term from now. */
  end_at: string;
}

/** Grants a package to a user without charge (POST /v1/user-packages with user_id and end_at). */
export const GrantModal = ({ onClose }: { onClose: () => void }) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = usePackageActions();
  const packages = usePackages();
  const [form] = Form.useForm<GrantDraft>();
  const [saving, setSaving] = useState(false);

  const save = async (draft: GrantDraft) => {
    if (draft.user_id === undefined || draft.package_id === undefined) return;
    const endAt = isoOf(draft.end_at);
    const onError = fieldErrorHandler(form, http, ['user_id', 'package_id', 'end_at']);
    setSaving(true);
    try {
      await actions.grant(
        { user_id: draft.user_id, package_id: draft.package_id, ...(endAt && { end_at: endAt }) },
        { onError },
      );
      feedback.success(t('packages.grant.done'));
      onClose();
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  };
  const required = (field: string) => ({ required: true, message: t('packages.common.required', { field }) });

  return (
    <Modal
      open
      title={t('packages.grant.title')}
      okText={t('packages.grant.ok')}
      cancelText={t('packages.common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form<GrantDraft> form={form} layout="vertical" onFinish={save} initialValues={{ end_at: '' }}>
        <Form.Item name="user_id" label={t('packages.grant.user')} rules={[required(t('packages.grant.user'))]}>
          <UserPicker label={t('packages.grant.user')} />
        </Form.Item>
        <Form.Item
          name="package_id"
          label={t('packages.grant.package')}
          rules={[required(t('packages.grant.package'))]}
        >
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            aria-label={t('packages.grant.package')}
            options={(packages.data ?? []).map((pkg) => ({ value: pkg.id, label: pkg.name }))}
          />
        </Form.Item>
        <Form.Item
          name="end_at"
          label={t('packages.grant.endAt')}
          extra={t('packages.grant.endAtHelp')}
          rules={[
            {
              validator: async (_rule: unknown, value: string | undefined) => {
                const iso = isoOf(value);
                if (iso && Date.parse(iso) <= Date.now()) throw new Error(t('packages.grant.endAtRule'));
              },
            },
          ]}
        >
          <Input type="datetime-local" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
