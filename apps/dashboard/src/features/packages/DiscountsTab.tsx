import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { type DiscountView, TERMS, type Term } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useDiscounts, usePackageActions, usePackages } from './api.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';

interface DiscountDraft {
  /** 0: every package. */
  package_id: number;
  term: Term;
  percent: number | null;
}

/** Discounts: a percent off one package's (or every package's) price for a term. */
export const DiscountsTab = () => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const totalText = useTotalText();
  const http = useHttp();
  const feedback = useFeedback();
  const discounts = useDiscounts();
  const packages = usePackages();
  const actions = usePackageActions();
  // undefined: closed; null: adding one.
  const [editing, setEditing] = useState<DiscountView | null>();
  const [form] = Form.useForm<DiscountDraft>();
  const [saving, setSaving] = useState(false);

  const open = (discount: DiscountView | null) => {
    form.resetFields();
    form.setFieldsValue({
      package_id: discount?.package_id ?? 0,
      term: (discount?.term as Term | undefined) ?? 'month',
      percent: discount?.percent ?? null,
    });
    setEditing(discount);
  };
  const save = async (draft: DiscountDraft) => {
    const body = { package_id: draft.package_id || null, term: draft.term, percent: draft.percent ?? 0 };
    const onError = fieldErrorHandler(form, http, ['package_id', 'term', 'percent']);
    setSaving(true);
    try {
      if (editing) await actions.discounts.update(editing.id, body, { onError });
      else await actions.discounts.create(body, { onError });
      feedback.success(t('packages.discounts.saved'));
      setEditing(undefined);
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => open(null)} style={{ marginBottom: 16 }}>
        {t('packages.discounts.add')}
      </Button>
      <Table<DiscountView>
        rowKey="id"
        size="middle"
        data-testid="discount-table"
        loading={discounts.isFetching && !discounts.data}
        dataSource={discounts.data ?? []}
        locale={{ emptyText: t('packages.discounts.empty') }}
        pagination={{ showTotal: totalText }}
        columns={[
          { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
          {
            key: 'package',
            dataIndex: 'package_name',
            title: t('packages.discounts.package'),
            render: (name: string | null) => name ?? t('packages.common.allPackages'),
          },
          {
            key: 'term',
            dataIndex: 'term',
            title: t('packages.discounts.term'),
            render: (term: string) => t(`packages.term.${term}`, { defaultValue: term }),
          },
          {
            key: 'percent',
            dataIndex: 'percent',
            title: t('packages.discounts.percent'),
            render: (percent: number) => `${percent}%`,
          },
          {
            key: 'actions',
            title: t('packages.common.actions'),
            render: (_, discount) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => open(discount)}
                  data-testid={`discount-edit:${discount.id}`}
                >
                  {t('packages.common.edit')}
                </Button>
                <Popconfirm
                  title={t('packages.discounts.confirmDelete')}
                  okText={t('packages.common.confirm')}
                  cancelText={t('packages.common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    await actions.discounts.remove(discount.id).catch(() => undefined);
                  }}
                >
                  <Button type="link" size="small" danger data-testid={`discount-delete:${discount.id}`}>
                    {t('packages.common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== undefined}
        title={editing ? t('packages.discounts.editTitle') : t('packages.discounts.addTitle')}
        okText={t('packages.common.save')}
        cancelText={t('packages.common.cancel')}
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        forceRender
      >
        <Form<DiscountDraft> form={form} layout="vertical" onFinish={save}>
          <Form.Item name="package_id" label={t('packages.discounts.package')}>
            <Select<number>
              aria-label={t('packages.discounts.package')}
              showSearch
              optionFilterProp="label"
              options={[
                { value: 0, label: t('packages.common.allPackages') },
                ...(packages.data ?? []).map((pkg) => ({ value: pkg.id, label: pkg.name })),
              ]}
            />
          </Form.Item>
          <Form.Item name="term" label={t('packages.discounts.term')}>
            <Select<Term>
              aria-label={t('packages.discounts.term')}
              options={TERMS.map((term) => ({ value: term, label: t(`packages.term.${term}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="percent"
            label={t('packages.discounts.percent')}
            rules={[
              { required: true, message: t('packages.discounts.percentRule') },
              { type: 'integer', min: 1, max: 99, message: t('packages.discounts.percentRule') },
            ]}
          >
            <InputNumber precision={0} suffix="%" style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
};
