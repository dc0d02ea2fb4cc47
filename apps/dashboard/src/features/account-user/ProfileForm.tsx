import { DisplayName } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useSession } from '../../shared/session/session.ts';
import { CodeField } from '../auth/code/CodeField.tsx';
import { fieldRules } from '../auth/fieldRules.ts';
import { useFreshBalance } from '../finance/api.ts';
import { formatMoney } from '../finance/money.ts';
import { RechargeLink } from '../finance/RechargeLink.tsx';
import { useProfileApi } from './api.ts';
import { needsCode, type ProfileValues, profileChanges } from './profileChanges.ts';

const FORM = 'profile';

/** Name, email, phone and QQ; a new email or phone shows its code field, filled from the message sent. */
export const ProfileForm = () => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const user = useSession((state) => state.user);
  const api = useProfileApi();
  const { balance } = useFreshBalance();
  const [form] = Form.useForm<ProfileValues>();
  const [saving, submitting] = useSubmitting();
  const email = Form.useWatch('email', form);
  const phone = Form.useWatch('phone', form);
  if (!user) return null;
  const rules = fieldRules(t);
  const codeRules = [{ required: true, message: t('auth.code.required') }, rules.code];

  const sendCode = async (field: 'email' | 'phone') => {
    const values = await form.validateFields([field]).catch(() => undefined);
    const target = values?.[field]?.trim();
    if (!target) return undefined;
    return field === 'email' ? api.sendEmailCode(target) : api.sendPhoneCode(target);
  };

  const save = (values: ProfileValues) =>
    submitting(async () => {
      const body = profileChanges(values, user);
      if (Object.keys(body).length === 0) {
        feedback.success(t('accountUser.profile.unchanged'));
        return;
      }
      const updated = await api.update(body);
      form.setFieldsValue({ ...updated, captcha: '', phone_captcha: '' });
      feedback.success(t('accountUser.profile.saved'));
    });

  return (
    <Form<ProfileValues>
      form={form}
      name={FORM}
      layout="vertical"
      style={{ maxWidth: 480 }}
      initialValues={{ name: user.name, email: user.email, phone: user.phone, qq: user.qq }}
      onFinish={save}
    >
      <Form.Item label={t('accountUser.profile.account')}>
        <Input value={user.account} disabled />
      </Form.Item>
      <Form.Item label={t('accountUser.profile.balance')}>
        <Space size={12}>
          <Typography.Text strong data-testid="profile-balance">
            {formatMoney(balance)}
          </Typography.Text>
          <RechargeLink />
        </Space>
      </Form.Item>
      <Form.Item
        name="name"
        label={t('accountUser.profile.name')}
        rules={[
          {
            pattern: new RegExp((DisplayName as { pattern?: string }).pattern ?? ''),
            max: 64,
            message: t('accountUser.profile.nameRule'),
          },
        ]}
      >
        <Input autoComplete="name" />
      </Form.Item>
      <Form.Item name="email" label={t('auth.field.email')} rules={[rules.email]}>
        <Input autoComplete="email" />
      </Form.Item>
      {needsCode(email, user.email) && (
        <CodeField
          formName={FORM}
          name="captcha"
          label={t('auth.code.email')}
          rules={codeRules}
          send={() => sendCode('email')}
          sendTestId="profile-email-send"
        />
      )}
      <Form.Item name="phone" label={t('auth.field.phone')} rules={[rules.phone]}>
        <Input autoComplete="tel" />
      </Form.Item>
      {needsCode(phone, user.phone) && (
        <CodeField
          formName={FORM}
          name="phone_captcha"
          label={t('auth.code.phone')}
          rules={codeRules}
          send={() => sendCode('phone')}
          sendTestId="profile-phone-send"
        />
      )}
      <Form.Item name="qq" label={t('auth.field.qq')} rules={[rules.qq]}>
        <Input inputMode="numeric" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('accountUser.profile.save')}
      </Button>
    </Form>
  );
};
