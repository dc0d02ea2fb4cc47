import type { MessageSendBody, MessageTarget } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal/Modal';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useMessageActions } from './api.ts';

interface SendForm {
  target: MessageTarget;
  user_id?: number;
  group_id?: number;
  type: 'system' | 'announcement';
  title: string;
  body: string;
}

/** An admin's message to one user, a user group or everyone. */
export const SendMessageModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const actions = useMessageActions();
  const [form] = Form.useForm<SendForm>();
  const target = Form.useWatch('target', form);
  const [busy, setBusy] = useState(false);
  const required = [{ required: true, message: t('messages.send.required') }];

  const submit = async () => {
    const values = await form.validateFields();
    const body: MessageSendBody = {
      target: values.target,
      type: values.type,
      title: values.title,
      body: values.body,
      ...(values.target === 'user' && { user_id: values.user_id }),
      ...(values.target === 'group' && { group_id: values.group_id }),
    };
    setBusy(true);
    try {
      const { recipients } = await actions.send(body);
      feedback.success(t('messages.send.sent', { count: recipients }));
      form.resetFields();
      onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('messages.send.title')}
      okText={t('messages.send.ok')}
      cancelText={t('messages.send.cancel')}
      confirmLoading={busy}
      onOk={() => submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form<SendForm>
        form={form}
        layout="vertical"
        initialValues={{ target: 'user', type: 'system' }}
        data-testid="send-message-form"
      >
        <Form.Item name="target" label={t('messages.send.target')} rules={required}>
          <Radio.Group
            options={[
              { value: 'user', label: t('messages.send.targetUser') },
              { value: 'group', label: t('messages.send.targetGroup') },
              { value: 'all', label: t('messages.send.targetAll') },
            ]}
          />
        </Form.Item>
        {target === 'user' && (
          <Form.Item name="user_id" label={t('messages.send.userId')} rules={required}>
            <InputNumber min={1} precision={0} style={{ width: 200 }} />
          </Form.Item>
        )}
        {target === 'group' && (
          <Form.Item name="group_id" label={t('messages.send.groupId')} rules={required}>
            <InputNumber min={0} precision={0} style={{ width: 200 }} />
          </Form.Item>
        )}
        <Form.Item name="type" label={t('messages.send.typeLabel')} rules={required}>
          <Select
            style={{ width: 200 }}
            options={[
              { value: 'system', label: t('messages.type.system') },
              { value: 'announcement', label: t('messages.type.announcement') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="title"
          label={t('messages.send.subject')}
          rules={[...required, { whitespace: true, max: 200 }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="body" label={t('messages.send.body')} rules={[...required, { whitespace: true, max: 5000 }]}>
          <Input.TextArea rows={5} maxLength={5000} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
