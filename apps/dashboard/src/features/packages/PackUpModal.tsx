import { ObjectName, type PackageUpView, UPGRADE_KINDS } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { usePackageActions, usePackages } from './api.ts';
import { type PackUpDraft, packUpBody, packUpDraftOf } from './drafts.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { moneyRule } from './money.ts';

const NAME = new RegExp((ObjectName as unknown as { pattern: string }).pattern);
const FIELDS = Object.keys(packUpDraftOf(null));

/** Adds or edits an upgrade pack: what it adds, its monthly price and the packages it fits. */
export const PackUpModal = ({ pack, onClose }: { pack: PackageUpView | null; onClose: () => void }) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = usePackageActions();
  const packages = usePackages();
  const [form] = Form.useForm<PackUpDraft>();
  const [saving, setSaving] = useState(false);
  const kind = Form.useWatch('kind', form) ?? pack?.kind ?? 'traffic_gb';

  const save = async (draft: PackUpDraft) => {
    const onError = fieldErrorHandler(form, http, FIELDS);
    setSaving(true);
    try {
      if (pack) await actions.packUps.update(pack.id, packUpBody(draft), { onError });
      else await actions.packUps.create(packUpBody(draft), { onError });
      feedback.success(t('packages.upgrade.saved'));
      onClose();
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  };
  const required = (field: string) => ({ required: true, message: t('packages.common.required', { field }) });

  return (
    <Modal
      open
      title={pack ? t('packages.upgrade.editTitle', { name: pack.name }) : t('packages.upgrade.addTitle')}
      okText={t('packages.common.save')}
      cancelText={t('packages.common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form<PackUpDraft> form={form} layout="vertical" onFinish={save} initialValues={packUpDraftOf(pack)}>
        <Form.Item
          name="name"
          label={t('packages.upgrade.name')}
          rules={[
            required(t('packages.upgrade.name')),
            { max: 64, message: t('packages.drawer.nameRule') },
            { pattern: NAME, message: t('packages.drawer.nameRule') },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="kind" label={t('packages.upgrade.kind')}>
          <Select
            aria-label={t('packages.upgrade.kind')}
            options={UPGRADE_KINDS.map((value) => ({ value, label: t(`packages.kind.${value}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('packages.upgrade.amountIn', { unit: t(`packages.unit.${kind}`) })}
          rules={[
            required(t('packages.upgrade.amount')),
            { type: 'integer', min: 1, max: 10_000_000, message: t('packages.upgrade.amountRule') },
          ]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} aria-label={t('packages.upgrade.amount')} />
        </Form.Item>
        <Form.Item
          name="price_month"
          label={t('packages.upgrade.price')}
          extra={t('packages.upgrade.priceHelp')}
          rules={[required(t('packages.upgrade.price')), moneyRule(t('packages.common.moneyRule'))]}
        >
          <Input inputMode="decimal" autoComplete="off" />
        </Form.Item>
        <Form.Item name="package_ids" label={t('packages.upgrade.packages')} extra={t('packages.upgrade.packagesHelp')}>
          <Select<number[]>
            mode="multiple"
            allowClear
            optionFilterProp="label"
            aria-label={t('packages.upgrade.packages')}
            placeholder={t('packages.common.allPackages')}
            options={(packages.data ?? []).map((pkg) => ({ value: pkg.id, label: pkg.name }))}
          />
        </Form.Item>
        <Form.Item name="on_sale" label={t('packages.upgrade.onSale')} valuePropName="checked">
          <Switch aria-label={t('packages.upgrade.onSale')} />
        </Form.Item>
        <Form.Item
          name="sort"
          label={t('packages.upgrade.sort')}
          rules={[
            {
              type: 'integer',
              min: 0,
              max: 9999,
              message: t('packages.common.countRule', { field: t('packages.upgrade.sort'), max: 9999 }),
            },
          ]}
        >
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
