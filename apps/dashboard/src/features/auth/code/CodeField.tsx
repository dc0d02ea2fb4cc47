import type { CaptchaSent } from '@rampart/contracts';
import Flex from 'antd/es/flex';
import Form, { type Rule } from 'antd/es/form';
import Input from 'antd/es/input/Input';
import { SendCodeButton } from './SendCodeButton.tsx';

interface CodeFieldProps {
  formName: string;
  name: string;
  label: string;
  rules: Rule[];
  send: () => Promise<CaptchaSent | undefined>;
  sendTestId: string;
  /** Shows the required marker; by default when a rule says `required` (a rule function cannot say). */
  required?: boolean;
}

/** A verification code input with its send button; the label points at the input. */
export const CodeField = ({ formName, name, label, rules, send, sendTestId, required }: CodeFieldProps) => (
  <Form.Item
    label={label}
    htmlFor={`${formName}_${name}`}
    required={required ?? rules.some((rule) => 'required' in rule)}
  >
    <Flex gap={8}>
      <Form.Item name={name} rules={rules} noStyle>
        <Input autoComplete="one-time-code" />
      </Form.Item>
      <SendCodeButton send={send} testId={sendTestId} />
    </Flex>
  </Form.Item>
);
