import { ObjectName, PACKAGE_FEATURES, PackageLimits, type PackageView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Col from 'antd/es/col';
import Divider from 'antd/es/divider';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useFeatureNames } from '../user-packages/PackageFeatures.tsx';
import { useCcRuleGroupChoices, useLineGroupChoices, usePackageActions, usePackageGroups } from './api.ts';
import {
  keptRule,
  type LIMIT_FIELDS,
  type PackageDraft,
  packageBody,
  packageDraftOf,
  sitesExceedDomains,
  withoutCoercedNulls,
} from './drafts.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { moneyRule, parseMoney } from './money.ts';

const NAME = new RegExp((ObjectName as unknown as { pattern: string }).pattern);
const maximum = (schema: unknown) => (schema as { maximum: number }).maximum;
const FIELDS = Object.keys(packageDraftOf(null));
const PRICES = ['price_month', 'price_quarter', 'price_year'] as const;

/** Adds or edits a package: every field of PackageBody, prices typed as money and sent as cents. */
export const PackageDrawer = ({ pkg, onClose }: { pkg: PackageView | null; onClose: () => void }) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = usePackageActions();
  const groups = usePackageGroups();
  const lineGroups = useLineGroupChoices();
  const ccGroups = useCcRuleGroupChoices();
  const [form] = Form.useForm<PackageDraft>();
  const [saving, setSaving] = useState(false);
  const [modal, modalHolder] = Modal.useModal();
  const featureName = useFeatureNames();

  const save = async (draft: PackageDraft) => {
    if (sitesExceedDomains(draft)) {
      const confirmed = await modal.confirm({
        title: t('packages.drawer.domainsShortTitle'),
        content: t('packages.drawer.domainsShort', { sites: draft.max_sites ?? 0, domains: draft.max_domains ?? 0 }),
        okText: t('packages.drawer.domainsShortOk'),
        cancelText: t('packages.drawer.domainsShortCancel'),
      });
      if (!confirmed) return;
    }
    const onError = fieldErrorHandler(form, http, FIELDS);
    setSaving(true);
    try {
      const body = withoutCoercedNulls(packageBody(draft));
      if (pkg) await actions.packages.update(pkg.id, body, { onError });
      else await actions.packages.create(body, { onError });
      feedback.success(t('packages.basic.saved'));
      onClose();
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  };
  const required = (field: string) => ({ required: true, message: t('packages.common.required', { field }) });
  const none = { value: 0, label: t('packages.common.none') };
  const count = (label: string, max: number) => ({
    type: 'integer' as const,
    min: 0,
    max,
    message: t('packages.common.countRule', { field: label, max }),
  });
  const limit = (name: (typeof LIMIT_FIELDS)[number], help?: string) => {
    const label = t(`packages.drawer.${name}`);
    return (
      <Col span={12} key={name}>
        <Form.Item
          name={name}
          label={label}
          extra={help}
          rules={[required(label), count(label, maximum(PackageLimits[name]))]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
    );
  };

  return (
    <Drawer
      open
      onClose={onClose}
      size={560}
      title={pkg ? t('packages.drawer.editTitle', { name: pkg.name }) : t('packages.drawer.addTitle')}
      extra={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="package-submit">
          {t('packages.common.save')}
        </Button>
      }
    >
      {modalHolder}
      <Form<PackageDraft> form={form} layout="vertical" onFinish={save} initialValues={packageDraftOf(pkg)}>
        <Form.Item
          name="name"
          label={t('packages.drawer.name')}
          rules={[
            required(t('packages.drawer.name')),
            { max: 64, message: t('packages.drawer.nameRule') },
            { pattern: NAME, message: t('packages.drawer.nameRule') },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="group_id" label={t('packages.drawer.group')}>
          <Select<number>
            aria-label={t('packages.drawer.group')}
            options={[none, ...(groups.data ?? []).map((group) => ({ value: group.id, label: group.name }))]}
          />
        </Form.Item>
        <Form.Item
          name="line_group_id"
          label={t('packages.drawer.lineGroup')}
          extra={t('packages.drawer.lineGroupHelp')}
        >
          <Select<number>
            aria-label={t('packages.drawer.lineGroup')}
            options={[none, ...(lineGroups.data ?? []).map((group) => ({ value: group.id, label: group.name }))]}
          />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('packages.drawer.description')}
          rules={[{ max: 500, message: t('packages.drawer.descriptionRule') }]}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
        <Divider titlePlacement="start" plain>
          {t('packages.drawer.prices')}
        </Divider>
        <Row gutter={12}>
          {PRICES.map((name) => (
            <Col span={8} key={name}>
              <Form.Item
                name={name}
                label={t(`packages.drawer.${name}`)}
                dependencies={name === 'price_month' ? ['on_sale', 'price_quarter', 'price_year'] : []}
                rules={[
                  moneyRule(t('packages.common.moneyRule')),
                  keptRule(pkg !== null && pkg[name] !== null, t('packages.drawer.keepPrice')),
                  ...(name === 'price_month'
                    ? [
                        ({ getFieldValue }: { getFieldValue: (field: string) => unknown }) => ({
                          validator: async () => {
                            const priced = PRICES.some((price) => parseMoney(getFieldValue(price) as string) !== null);
                            if (getFieldValue('on_sale') && !priced) throw new Error(t('packages.drawer.needPrice'));
                          },
                        }),
                      ]
                    : []),
                ]}
              >
                <Input inputMode="decimal" autoComplete="off" placeholder={t('packages.drawer.notSold')} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Divider titlePlacement="start" plain>
          {t('packages.drawer.limits')}
        </Divider>
        <Row gutter={12}>
          {limit('traffic_gb', t('packages.drawer.zeroUnlimited'))}
          {limit('bandwidth_mbps', t('packages.drawer.zeroUnlimited'))}
          {limit('max_sites')}
          {limit('max_domains')}
          {limit('max_streams')}
          {limit('max_ports')}
        </Row>
        <Form.Item name="billing" label={t('packages.drawer.billing')}>
          <Select
            aria-label={t('packages.drawer.billing')}
            options={[
              { value: 'traffic', label: t('packages.drawer.billingTraffic') },
              { value: 'bandwidth95', label: t('packages.drawer.billingBandwidth95') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="cc_rule_group_ids"
          label={t('packages.drawer.ccRuleGroups')}
          extra={t('packages.drawer.ccRuleGroupsHelp')}
        >
          <Select<number[]>
            mode="multiple"
            allowClear
            aria-label={t('packages.drawer.ccRuleGroups')}
            optionFilterProp="label"
            options={(ccGroups.data ?? [])
              .filter((group) => group.user_id === 0)
              .map((group) => ({ value: group.id, label: group.name }))}
          />
        </Form.Item>
        <Divider titlePlacement="start" plain>
          {t('packages.drawer.features')}
        </Divider>
        <Typography.Paragraph type="secondary">{t('packages.drawer.featuresHelp')}</Typography.Paragraph>
        <Row gutter={12} data-testid="package-features">
          {PACKAGE_FEATURES.map((feature) => (
            <Col span={12} key={feature}>
              <Form.Item name={feature} label={featureName(feature)} valuePropName="checked">
                <Switch aria-label={featureName(feature)} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Row gutter={12}>
          {(['custom_cname', 'on_sale'] as const).map((name) => (
            <Col span={12} key={name}>
              <Form.Item name={name} label={t(`packages.drawer.${name}`)} valuePropName="checked">
                <Switch aria-label={t(`packages.drawer.${name}`)} />
              </Form.Item>
            </Col>
          ))}
          <Col span={12}>
            <Form.Item name="sort" label={t('packages.drawer.sort')} rules={[count(t('packages.drawer.sort'), 9999)]}>
              <InputNumber precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="stock"
              label={t('packages.drawer.stock')}
              extra={t('packages.drawer.stockHelp')}
              rules={[
                count(t('packages.drawer.stock'), 1_000_000),
                keptRule(pkg !== null && pkg.stock !== null, t('packages.drawer.keepStock')),
              ]}
            >
              <InputNumber precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Drawer>
  );
};
