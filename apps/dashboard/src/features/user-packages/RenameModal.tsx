import type { UserPackageView } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal/Modal';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useUserPackageActions } from './api.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';

/** Renames one of the user's packages (1 to 64 characters). */
export const RenameModal = ({ userPackage, onClose }: { userPackage: UserPackageView; onClose: () => void }) => {
  const { t } = useLocales(USER_PACKAGES_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useUserPackageActions();
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);

  const save = async ({ name }: { name: string }) => {
    setSaving(true);
    try {
      await actions.update(userPackage.id, { name: name.trim() }, { onError: fieldErrorHandler(form, http, ['name']) });
      feedback.success(t('userPackages.rename.done'));
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
      title={t('userPackages.rename.title', { name: userPackage.name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('userPackages.rename.save')}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form<{ name: string }> form={form} layout="vertical" onFinish={save} initialValues={{ name: userPackage.name }}>
        <Form.Item
          name="name"
          label={t('userPackages.rename.name')}
          rules={[
            { required: true, whitespace: true, message: t('userPackages.rename.rule') },
            { max: 64, message: t('userPackages.rename.rule') },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
