import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { fieldErrorHandler } from '../../sites/serverErrors.ts';
import { useBanActions } from '../api.ts';
import {
  type BanDraft,
  banBody,
  checkBanCidr,
  checkBanSeconds,
  checkBanSite,
  checkReason,
  NEW_BAN,
} from '../model/banPayload.ts';
import { checkRule } from '../shared/formRules.ts';
import { useReachesEveryUser } from '../shared/owners.ts';
import { SitePicker } from '../shared/SitePicker.tsx';

/** A manual ban of an address or range on one site, or (admins) on every site. */
export const BanModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const admin = useReachesEveryUser();
  const actions = useBanActions();
  const [form] = Form.useForm<BanDraft>();
  const [saving, submitting] = useSubmitting();
  const submit = async (draft: BanDraft) => {
    await submitting(async () => {
      await actions.ban(banBody(draft), {
        onError: fieldErrorHandler(form, http, ['site_id', 'cidr', 'seconds', 'reason']),
      });
      feedback.success(t('protection.bans.banned', { cidr: draft.cidr.trim() }));
      form.resetFields();
      onClose();
    });
  };
  return (
    <Modal
      open={open}
      title={t('protection.bans.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('protection.bans.submit')}
      cancelText={t('protection.cancel')}
      confirmLoading={saving}
      forceRender
    >
      <Form<BanDraft> form={form} layout="vertical" initialValues={NEW_BAN} onFinish={submit}>
        <Form.Item
          name="site_id"
          label={t('protection.bans.site')}
          rules={[checkRule(t, (value) => checkBanSite(value, admin))]}
        >
          <SitePicker allowAll={admin} aria-label={t('protection.bans.site')} />
        </Form.Item>
        <Form.Item name="cidr" label={t('protection.bans.cidr')} rules={[checkRule(t, checkBanCidr)]}>
          <Input placeholder="203.0.113.0/24" />
        </Form.Item>
        <Form.Item name="seconds" label={t('protection.bans.seconds')} rules={[checkRule(t, checkBanSeconds)]}>
          <InputNumber precision={0} style={{ width: 200 }} suffix={t('protection.seconds')} />
        </Form.Item>
        <Form.Item name="reason" label={t('protection.bans.reason')} rules={[checkRule(t, checkReason)]}>
          <Input maxLength={256} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
