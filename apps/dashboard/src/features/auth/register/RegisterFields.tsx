import type { CodeChannels, FieldRequirement } from '@rampart/contracts';
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
  /** Whether the master can send a code this way; without it the address is asked with no code. */
  canSend: boolean;
  form: FormInstance<RegisterValues>;
}

/** Whether register-info says a code can be sent by SMS (phone) or by mail (email). */
export const canSendCode = (info: CodeChannels, channel: Channel): boolean =>
  channel === 'email' ? info.email_code : info.phone_code;

/** Email or phone with its code; the code is needed whenever an address is given and a code can be sent. */
export const ContactFields = ({ channel, requirement, canSend, form }: ContactFieldsProps) => {
  const { t } = useTranslation();
  const api = useAuthApi();
  const address: unknown = Form.useWatch(channel, form);
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
      {canSend && (
        <CodeField
          formName={REGISTER_FORM}
          required={requirement === 'required' || (typeof address === 'string' && address.trim() !== '')}
          name={codeName}
          label={t(`auth.code.${channel}`)}
          rules={codeRules}
          send={send}
          sendTestId={`send-${channel}-code`}
        />
      )}
    </>
  );
};
