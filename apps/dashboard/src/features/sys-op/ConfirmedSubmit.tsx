import Button from 'antd/es/button';
import type { FormInstance } from 'antd/es/form';
import Popconfirm from 'antd/es/popconfirm';
import { useState } from 'react';

/**
 * A submit button for a destructive form: the form is validated first, and only a valid form asks
 * for the confirmation; confirming submits it.
 */
export const ConfirmedSubmit = ({
  form,
  title,
  text,
  loading,
  disabled,
  ready = () => true,
}: {
  form: FormInstance;
  title: string;
  text: string;
  loading: boolean;
  disabled?: boolean;
  /** A check the form's rules cannot make (a chosen file), shown by the caller when it fails. */
  ready?: () => boolean;
}) => {
  const [open, setOpen] = useState(false);
  const ask = async () => {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    if (ready()) setOpen(true);
  };
  return (
    <Popconfirm
      title={title}
      open={open}
      onConfirm={() => {
        setOpen(false);
        form.submit();
      }}
      onCancel={() => setOpen(false)}
    >
      <Button type="primary" danger loading={loading} disabled={disabled} onClick={() => void ask()}>
        {text}
      </Button>
    </Popconfirm>
  );
};
