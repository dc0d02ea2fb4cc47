import type { Site } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Spin from 'antd/es/spin';
import Tabs from 'antd/es/tabs';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { useTabs } from '../../../layout/tabs/tabsStore.ts';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { useSitePackageFeatures } from '../../user-packages/api.ts';
import { featureLocked, gatedTab } from '../../user-packages/SiteFeatureGate.tsx';
import { useApplyStatus, useSite, useSiteActions } from '../api.ts';
import { DomainProofPanel } from '../domain-proof/DomainProofPanel.tsx';
import { ErrorPagesSection } from '../error-pages/ErrorPagesSection.tsx';
import { HealthCheckSection } from '../health-check/HealthCheckSection.tsx';
import { HotlinkSection } from '../hotlink/HotlinkSection.tsx';
import { SITES_LOCALES } from '../locales/bundle.ts';
import { RedirectsSection } from '../redirects/RedirectsSection.tsx';
import { fieldErrorHandler } from '../serverErrors.ts';
import { changedSiteFields, type SiteFormValues, siteFieldPath, siteFormValues } from '../sitePayload.ts';
import { UrlAuthSection } from '../url-auth/UrlAuthSection.tsx';
import { ApplyStatusLine } from './ApplyStatusLine.tsx';
import { CacheRulesEditor, HeadersEditor } from './ListEditors.tsx';
import { BasicSection, HttpsSection, OriginsSection } from './sections.tsx';

// Its own form, API calls and strings: loaded when its tab is first opened.
const ProtectionSection = lazy(async () => ({
  default: (await import('../../protection/site/ProtectionSection.tsx')).ProtectionSection,
}));

const FORM_FIELDS = [
  'domainsText',
  'name',
  'group_id',
  'line_group_id',
  'enabled',
  'origins',
  'balance',
  'origin_protocol',
  'origin_host',
  'cert_id',
  'http_listen',
  'https_listen',
  'force_https',
  'hsts',
  'http2',
  'websocket',
  'gzip',
  'cache_rules',
  'request_headers',
  'response_headers',
  'hotlink',
  'url_auth',
  'error_pages',
  'redirects',
  'health_check',
];

/** The edit form of one site; exported for its tests. */
export const SiteForm = ({ site }: { site: Site }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useSiteActions();
  const [form] = Form.useForm<SiteFormValues>();
  const [saving, submitting] = useSubmitting();
  const [tab, setTab] = useState('basic');
  const packageFeatures = useSitePackageFeatures(site.id, site.updated_at).data;

  const save = async () => {
    const values = form.getFieldsValue(true) as SiteFormValues;
    const body = changedSiteFields(site, values);
    if (Object.keys(body).length === 0) {
      feedback.success(t('sites.noChanges'));
      return;
    }
    await submitting(async () => {
      await actions.update(site.id, body, { onError: fieldErrorHandler(form, http, FORM_FIELDS, siteFieldPath) });
      feedback.success(t('sites.saved'));
    });
  };

  const items = [
    { key: 'basic', label: t('sites.edit.section.basic'), children: <BasicSection /> },
    { key: 'origins', label: t('sites.edit.section.origins'), children: <OriginsSection /> },
    {
      key: 'https',
      label: t('sites.edit.section.https'),
      children: <HttpsSection httpsLocked={featureLocked(packageFeatures, 'https')} />,
    },
    { key: 'cache', label: t('sites.edit.section.cache'), children: <CacheRulesEditor /> },
    {
      key: 'headers',
      label: t('sites.edit.section.headers'),
      children: (
        <>
          <h4>{t('sites.header.request')}</h4>
          <HeadersEditor name="request_headers" />
          <h4>{t('sites.header.response')}</h4>
          <HeadersEditor name="response_headers" />
        </>
      ),
    },
    { key: 'hotlink', label: t('sites.edit.section.hotlink'), children: <HotlinkSection /> },
    { key: 'url_auth', label: t('sites.edit.section.urlAuth'), children: <UrlAuthSection /> },
    { key: 'error_pages', label: t('sites.edit.section.errorPages'), children: <ErrorPagesSection /> },
    { key: 'redirects', label: t('sites.edit.section.redirects'), children: <RedirectsSection /> },
    {
      key: 'health_check',
      label: t('sites.edit.section.healthCheck'),
      children: <HealthCheckSection siteId={site.id} savedOn={site.health_check?.enabled === true} />,
    },
  ]
    .map((item) => ({ ...item, children: gatedTab(packageFeatures, item.key, item.children), forceRender: true }))
    // Its own form and save button, loaded when first opened.
    .concat({
      key: 'protection',
      label: t('sites.edit.section.protection'),
      children: gatedTab(
        packageFeatures,
        'protection',
        <Suspense fallback={<Spin />}>
          <ProtectionSection site={site} />
        </Suspense>,
      ),
      forceRender: false,
    });

  return (
    <Form<SiteFormValues> form={form} layout="vertical" initialValues={siteFormValues(site)} onFinish={save}>
      <Tabs items={items} activeKey={tab} onChange={setTab} />
      {/* The protection tab saves with its own button. */}
      {tab !== 'protection' && (
        <Button type="primary" htmlType="submit" loading={saving} data-testid="site-save">
          {t('sites.save')}
        </Button>
      )}
    </Form>
  );
};

/** Spec §2 /site/list/:id: one site's settings in sections; saving sends only what changed. */
export const Component = () => {
  useLocales(SITES_LOCALES);
  const { id } = useParams();
  const siteId = Number(id);
  const site = useSite(siteId);
  const applyStatus = useApplyStatus(siteId);
  const location = useLocation();
  const domain = site.data?.domains[0];
  useEffect(() => {
    if (domain) useTabs.getState().setTitle(`${location.pathname}${location.search}`, domain);
  }, [domain, location.pathname, location.search]);

  return (
    <section data-testid="site-edit-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      {site.data ? (
        <>
          <h2 style={{ fontSize: 18, fontWeight: 600, marginTop: 0 }}>{site.data.domains.join(', ')}</h2>
          <ApplyStatusLine status={applyStatus} />
          <DomainProofPanel site={site.data} />
          <SiteForm key={site.data.updated_at} site={site.data} />
        </>
      ) : (
        <Spin spinning={site.isPending} />
      )}
    </section>
  );
};
