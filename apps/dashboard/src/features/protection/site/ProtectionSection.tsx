import type { Site } from '@rampart/contracts';
import { useQueryClient } from '@tanstack/react-query';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../../sites/serverErrors.ts';
import { type Acl, aclKey, saveAcl, saveSiteProtection, useSiteAcl } from '../api.ts';
import { PROTECTION_LOCALES } from '../locales/bundle.ts';
import { formPath } from '../model/formPath.ts';
import { aclEntries, type ProtectionValues, protectionBody, protectionValues } from '../model/siteProtection.ts';
import { ProtectionFields } from './ProtectionFields.tsx';

const FIELDS = ['rule_group_id', 'attack_rule_group_id', 'under_attack', 'whitelistText', 'waf', 'acl'];

const ProtectionForm = ({ site, acl }: { site: Site; acl: Acl | null }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProtectionValues>();
  const [saving, submitting] = useSubmitting();

  const save = async (values: ProtectionValues) => {
    await submitting(async () => {
      const onError = fieldErrorHandler(form, http, FIELDS, formPath);
      await saveSiteProtection(http, site.id, protectionBody(values), { onError });
      await saveAcl(http, site.id, acl, aclEntries(values), { onError });
      // The site itself is not refetched: its edit form would start over and drop unsaved changes.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: aclKey(site.id) }),
        queryClient.invalidateQueries({ queryKey: ['sites', 'apply-status', site.id] }),
        queryClient.invalidateQueries({ queryKey: ['sites', 'list'] }),
      ]);
      feedback.success(t('protection.site.saved'));
    });
  };

  return (
    <div data-testid="protection-section">
      {/* The section sits inside the site's form: no nested <form> element. */}
      <Form<ProtectionValues>
        form={form}
        component={false}
        layout="vertical"
        initialValues={protectionValues(site.protection, acl)}
        onFinish={save}
      >
        <ProtectionFields owner={site.user_id} siteId={site.id} />
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="protection-save">
          {t('protection.site.save')}
        </Button>
      </Form>
    </div>
  );
};

/** The protection section of the site edit page: saved on its own, with PUT /v1/sites/{id} and the ACL calls. */
export const ProtectionSection = ({ site }: { site: Site }) => {
  // Loaded when the tab is first opened, the section brings the protection strings with it.
  useLocales(PROTECTION_LOCALES);
  const acl = useSiteAcl(site.id);
  if (acl.isPending) return <Spin />;
  // Without the ACL (a failed call, already shown) the section would overwrite entries it never saw.
  if (acl.isError) return null;
  return <ProtectionForm site={site} acl={acl.data} />;
};
