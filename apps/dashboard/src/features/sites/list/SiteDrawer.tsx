import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import type { ApiError } from '../../../shared/http/apiError.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { useSiteActions } from '../api.ts';
import { edgeRules } from '../edgeRules.ts';
import { OriginsEditor } from '../origins/OriginsEditor.tsx';
import { isPackageRequired } from '../package/packageStanding.ts';
import { fieldErrorHandler } from '../serverErrors.ts';
import { createSiteBody, NEW_ORIGIN, type SiteDraft, siteFieldPath } from '../sitePayload.ts';
import { GroupSelect } from './GroupSelect.tsx';

const DRAFT_FIELDS = ['domainsText', 'origins', 'group_id', 'name'];

/** The add-site drawer: domains, origins and group, checked with the master's rules before sending. */
export const SiteDrawer = ({
  open,
  onClose,
  onPackageRequired,
}: {
  open: boolean;
  onClose: () => void;
  /** The master refused: the account needs a package; the list says so instead of this form. */
  onPackageRequired: () => void;
}) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useSiteActions();
  const [form] = Form.useForm<SiteDraft>();
  const [saving, submitting] = useSubmitting();
  const rules = edgeRules(t);

  const submit = async (draft: SiteDraft) => {
    const onFieldError = fieldErrorHandler(form, http, DRAFT_FIELDS, siteFieldPath);
    const onError = (error: ApiError) => {
      if (!isPackageRequired(error)) return onFieldError(error);
      onClose();
      onPackageRequired();
    };
    await submitting(async () => {
      await actions.create(createSiteBody(draft), { onError });
      feedback.success(t('sites.add.doneGuide'));
      form.resetFields();
      onClose();
    });
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('sites.add.title')}
      size={640}
      destroyOnHidden={false}
      extra={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="site-drawer-submit">
          {t('sites.add.submit')}
        </Button>
      }
    >
      <Form<SiteDraft>
        form={form}
        layout="vertical"
        initialValues={{ domainsText: '', origins: [NEW_ORIGIN], group_id: null }}
        onFinish={submit}
      >
        <Form.Item
          name="domainsText"
          label={t('sites.field.domains')}
          required
          extra={t('sites.field.domainsHelp')}
          rules={[rules.domains]}
        >
          <TextArea rows={3} placeholder="www.example.com" />
        </Form.Item>
        <Form.Item label={t('sites.field.origins')} required>
          <OriginsEditor />
        </Form.Item>
        <Form.Item name="group_id" label={t('sites.field.group')}>
          <GroupSelect />
        </Form.Item>
        <Form.Item name="name" label={t('sites.field.name')} rules={rules.name}>
          <Input />
        </Form.Item>
      </Form>
    </Drawer>
  );
};
