import Form from 'antd/es/form';
import Password from 'antd/es/input/Password';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { confirmRules, passwordRules } from './passwordRules.ts';
import { type PasswordStrength, passwordStrength } from './passwordStrength.ts';

const STRENGTH_TONE: Record<PasswordStrength, 'danger' | 'warning' | 'success'> = {
  tooShort: 'danger',
  medium: 'warning',
  strong: 'success',
};

/** Password and confirmation with the spec's strength label; fields `password` and `confirm`. */
export const PasswordFields = ({ label }: { label: string }) => {
  const { t } = useTranslation();
  const password = Form.useWatch<string | undefined>('password');
  const strength = password ? passwordStrength(password) : undefined;
  return (
    <>
      <Form.Item
        name="password"
        label={label}
        rules={passwordRules(t)}
        extra={
          strength && (
            <Typography.Text type={STRENGTH_TONE[strength]} data-testid="password-strength">
              {t('auth.password.strength', { level: t(`auth.password.level.${strength}`) })}
            </Typography.Text>
          )
        }
      >
        <Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('auth.password.confirm')}
        dependencies={['password']}
        rules={confirmRules(t, 'password')}
      >
        <Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
};
