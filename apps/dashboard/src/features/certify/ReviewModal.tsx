import Form from 'antd/es/form';
import TextArea from 'antd/es/input/TextArea';
import Modal from 'antd/es/modal/Modal';
import { useTranslation } from 'react-i18next';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { type Certification, useCertifyActions } from './api.ts';

/** Rejecting needs a reason, which the user reads on their page. */
export const ReviewModal = ({ request, onClose }: { request: Certification | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const actions = useCertifyActions();
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, submitting] = useSubmitting();
  const submit = ({ reason }: { reason: string }) =>
    submitting(async () => {
      if (!request) return;
      await actions.review(request.id, { state: 'rejected', reason: reason.trim() });
      onClose();
    });
  return (
    <Modal
      open={request !== null}
      title={t('certify.review.rejectTitle', { account: request?.account ?? '' })}
      okText={t('certify.review.reject')}
      okButtonProps={{ danger: true }}
      cancelText={t('certify.review.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} name="certify-reject" layout="vertical" onFinish={submit}>
        <Form.Item
          name="reason"
          label={t('certify.reason')}
          rules={[
            { required: true, whitespace: true, message: t('certify.review.reasonRequired') },
            { max: 500, pattern: /^[^<>]*$/, message: t('certify.review.reasonRule') },
          ]}
        >
          <TextArea rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
