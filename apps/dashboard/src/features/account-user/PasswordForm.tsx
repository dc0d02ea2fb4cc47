import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Password from 'antd/es/input/Password';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { PasswordFields } from '../auth/password/PasswordFields.tsx';
import { useProfileApi } from './api.ts';

interface PasswordValues {
  old_password: string;
  password: string;
  confirm: string;
}

/** A new password with the current one; the master ends every other session of the user. */
export const PasswordForm = () => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const api = useProfileApi();
  const http = useHttp();
  const [form] = Form.useForm<PasswordValues>();
  const [saving, submitting] = useSubmitting();
  const save = (values: PasswordValues) =>
    submitting(async () => {
      await api.update(
        { old_password: values.old_password, password: values.password },
        {
          // A wrong current password is said at its field; anything else is the usual popup.
          onError: (error) => {
            if (error.code === 'bad_credentials') {
              form.setFields([{ name: 'old_password', errors: [t('accountUser.password.currentWrong')] }]);
            } else {
              http.notify(error);
            }
          },
        },
      );
      form.resetFields();
      feedback.success(t('accountUser.password.saved'));
    });
  return (
    <Form<PasswordValues> form={form} name="password" layout="vertical" style={{ maxWidth: 480 }} onFinish={save}>
      <Alert type="info" showIcon title={t('accountUser.password.note')} style={{ marginBottom: 16 }} />
      <Form.Item
        name="old_password"
        label={t('accountUser.password.current')}
        rules={[{ required: true, message: t('accountUser.password.currentRequired') }]}
      >
        <Password autoComplete="current-password" />
      </Form.Item>
      <PasswordFields label={t('auth.password.newLabel')} />
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('accountUser.password.save')}
      </Button>
    </Form>
  );
};
