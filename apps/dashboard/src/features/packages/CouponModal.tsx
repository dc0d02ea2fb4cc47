import type { CouponView } from '@rampart/contracts';
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { usePackageActions, usePackages } from './api.ts';
import {
  type CouponDraft,
  couponBody,
  couponDraftOf,
  couponValue,
  isoOf,
  keptRule,
  withoutCoercedNulls,
} from './drafts.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';
import { moneyRule } from './money.ts';

const CODE = /^[A-Za-z0-9_-]{4,32}$/;
const FIELDS = Object.keys(couponDraftOf(null));
type Getter = { getFieldValue: (field: string) => unknown };

/** Adds or edits a coupon: its code, amount or percent off, conditions, validity and use limits. */
export const CouponModal = ({ coupon, onClose }: { coupon: CouponView | null; onClose: () => void }) => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = usePackageActions();
  const packages = usePackages();
  const [form] = Form.useForm<CouponDraft>();
  const [saving, setSaving] = useState(false);
  const kind = Form.useWatch('kind', form) ?? coupon?.kind ?? 'amount';

  const save = async (draft: CouponDraft) => {
    const onError = fieldErrorHandler(form, http, FIELDS);
    setSaving(true);
    try {
      const body = withoutCoercedNulls(couponBody(draft));
      if (coupon) await actions.coupons.update(coupon.id, body, { onError });
      else await actions.coupons.create(body, { onError });
      feedback.success(t('packages.coupons.saved'));
      onClose();
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  };
  const required = (field: string) => ({ required: true, message: t('packages.common.required', { field }) });
  const uses = (field: string) => ({
    type: 'integer' as const,
    min: 1,
    max: 1_000_000,
    message: t('packages.coupons.usesRule', { field }),
  });

  return (
    <Modal
      open
      width={640}
      title={coupon ? t('packages.coupons.editTitle', { code: coupon.code }) : t('packages.coupons.addTitle')}
      okText={t('packages.common.save')}
      cancelText={t('packages.common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form<CouponDraft> form={form} layout="vertical" onFinish={save} initialValues={couponDraftOf(coupon)}>
        <Form.Item
          name="code"
          label={t('packages.coupons.code')}
          rules={[required(t('packages.coupons.code')), { pattern: CODE, message: t('packages.coupons.codeRule') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="kind" label={t('packages.coupons.kind')}>
          <Radio.Group
            onChange={() => form.setFields([{ name: 'value', errors: [] }])}
            options={[
              { value: 'amount', label: t('packages.coupons.kindAmount') },
              { value: 'percent', label: t('packages.coupons.kindPercent') },
            ]}
          />
        </Form.Item>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item
              name="value"
              label={kind === 'percent' ? t('packages.coupons.valuePercent') : t('packages.coupons.valueAmount')}
              dependencies={['kind']}
              rules={[
                required(t('packages.coupons.value')),
                ({ getFieldValue }: Getter) => ({
                  validator: async (_rule: unknown, value: string | undefined) => {
                    if (!value?.trim()) return;
                    const currentKind = getFieldValue('kind') as CouponDraft['kind'];
                    if (couponValue(currentKind, value) === undefined)
                      throw new Error(
                        t(currentKind === 'percent' ? 'packages.coupons.percentRule' : 'packages.coupons.amountRule'),
                      );
                  },
                }),
              ]}
            >
              <Input inputMode="decimal" autoComplete="off" aria-label={t('packages.coupons.value')} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="min_spend"
              label={t('packages.coupons.minSpend')}
              extra={t('packages.coupons.minSpendHelp')}
              rules={[moneyRule(t('packages.common.moneyRule'))]}
            >
              <Input inputMode="decimal" autoComplete="off" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="package_ids" label={t('packages.coupons.packages')}>
          <Select<number[]>
            mode="multiple"
            allowClear
            optionFilterProp="label"
            aria-label={t('packages.coupons.packages')}
            placeholder={t('packages.common.allPackages')}
            options={(packages.data ?? []).map((pkg) => ({ value: pkg.id, label: pkg.name }))}
          />
        </Form.Item>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item
              name="starts_at"
              label={t('packages.coupons.startsAt')}
              extra={t('packages.coupons.noBound')}
              rules={[keptRule(coupon?.starts_at != null, t('packages.coupons.keepBound'))]}
            >
              <Input type="datetime-local" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="ends_at"
              label={t('packages.coupons.endsAt')}
              dependencies={['starts_at']}
              extra={t('packages.coupons.noBound')}
              rules={[
                keptRule(coupon?.ends_at != null, t('packages.coupons.keepBound')),
                ({ getFieldValue }: Getter) => ({
                  validator: async (_rule: unknown, value: string | undefined) => {
                    const starts = isoOf(getFieldValue('starts_at') as string);
                    const ends = isoOf(value);
                    if (starts && ends && ends <= starts) throw new Error(t('packages.coupons.endsRule'));
                  },
                }),
              ]}
            >
              <Input type="datetime-local" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="uses_per_user"
              label={t('packages.coupons.usesPerUser')}
              rules={[required(t('packages.coupons.usesPerUser')), uses(t('packages.coupons.usesPerUser'))]}
            >
              <InputNumber precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="uses_total"
              label={t('packages.coupons.usesTotal')}
              rules={[required(t('packages.coupons.usesTotal')), uses(t('packages.coupons.usesTotal'))]}
            >
              <InputNumber precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="enabled" label={t('packages.coupons.enabled')} valuePropName="checked">
          <Switch aria-label={t('packages.coupons.enabled')} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
