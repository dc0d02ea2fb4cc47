import type { FieldRequirement } from '@rampart/contracts';
import Form, { type FormInstance, type Rule } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import { useTranslation } from 'react-i18next';
import { useAuthApi } from '../api.ts';
import { CodeField } from '../code/CodeField.tsx';
import { fieldRules } from '../fieldRules.ts';
import type { RegisterValues } from './registerBody.ts';

export const REGISTER_FORM = 'register';

type Channel = 'email' | 'phone';

interface ContactFieldsProps {
  channel: Channel;
  requirement: FieldRequirement;
  form: FormInstance<RegisterValues>;
}

/** Email or phone with its code; the code is needed whenever an address is given. */
export const ContactFields = ({ channel, requirement, form }: ContactFieldsProps) => {
  const { t } = useTranslation();
  const api = useAuthApi();
  if (requirement === 'hidden') return null;
  const rules = fieldRules(t);
  const label = t(`auth.field.${channel}`);
  const codeName = channel === 'email' ? 'emailCode' : 'phoneCode';
  const addressRules: Rule[] = [
    rules[channel],
    { required: requirement === 'required', message: t('auth.field.required', { field: label }) },
  ];
  const codeRules: Rule[] = [
    rules.code,
    ({ getFieldValue }) => ({ required: Boolean(getFieldValue(channel)), message: t('auth.code.required') }),
  ];
  const send = async () => {
    const values = await form.validateFields([channel]).catch(() => undefined);
    const address = values?.[channel]?.trim();
    if (!address) return undefined;
    return channel === 'email' ? api.sendEmailCode(address, 'register') : api.sendPhoneCode(address, 'register');
  };
  return (
    <>
      <Form.Item name={channel} label={label} rules={addressRules}>
        <Input type={channel === 'email' ? 'email' : 'tel'} autoComplete={channel === 'email' ? 'email' : 'tel'} />
      </Form.Item>
      <CodeField
        formName={REGISTER_FORM}
        name={codeName}
        label={t(`auth.code.${channel}`)}
        rules={codeRules}
        send={send}
        sendTestId={`send-${channel}-code`}
      />
    </>
  );
};
