import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { ObjectName, type PackageGroupView } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useTotalText } from '../../shared/table/totals.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { usePackageActions, usePackageGroups } from './api.ts';
import { PACKAGES_LOCALES } from './locales/bundle.ts';

interface GroupDraft {
  name: string;
  sort: number | null;
  description: string;
}

const NAME = new RegExp((ObjectName as unknown as { pattern: string }).pattern);

/** The package groups (name, sort, description): the buy page's sections and what user groups may buy. */
export const PackageGroupsTab = () => {
  const { t } = useLocales(PACKAGES_LOCALES);
  const totalText = useTotalText();
  const http = useHttp();
  const feedback = useFeedback();
  const groups = usePackageGroups();
  const actions = usePackageActions();
  // undefined: closed; null: adding one.
  const [editing, setEditing] = useState<PackageGroupView | null>();
  const [form] = Form.useForm<GroupDraft>();
  const [saving, setSaving] = useState(false);

  const open = (group: PackageGroupView | null) => {
    form.resetFields();
    form.setFieldsValue({ name: group?.name ?? '', sort: group?.sort ?? 0, description: group?.description ?? '' });
    setEditing(group);
  };
  const save = async (draft: GroupDraft) => {
    const body = { name: draft.name.trim(), sort: draft.sort ?? 0, description: draft.description.trim() };
    const onError = fieldErrorHandler(form, http, ['name', 'sort', 'description']);
    setSaving(true);
    try {
      if (editing) await actions.groups.update(editing.id, body, { onError });
      else await actions.groups.create(body, { onError });
      feedback.success(t('packages.groups.saved'));
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
        {t('packages.groups.add')}
      </Button>
      <Table<PackageGroupView>
        rowKey="id"
        size="middle"
        data-testid="package-group-table"
        loading={groups.isFetching && !groups.data}
        dataSource={groups.data ?? []}
        locale={{ emptyText: t('packages.groups.empty') }}
        pagination={{ showTotal: totalText }}
        columns={[
          { key: 'id', dataIndex: 'id', title: 'ID', width: 60 },
          { key: 'name', dataIndex: 'name', title: t('packages.groups.name') },
          { key: 'sort', dataIndex: 'sort', title: t('packages.groups.sort') },
          { key: 'description', dataIndex: 'description', title: t('packages.groups.description') },
          { key: 'packages', dataIndex: 'package_count', title: t('packages.groups.packages') },
          {
            key: 'actions',
            title: t('packages.common.actions'),
            render: (_, group) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => open(group)}
                  data-testid={`package-group-edit:${group.name}`}
                >
                  {t('packages.common.edit')}
                </Button>
                <Popconfirm
                  title={t('packages.groups.confirmDelete', { name: group.name })}
                  okText={t('packages.common.confirm')}
                  cancelText={t('packages.common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={async () => {
                    await actions.groups.remove(group.id).catch(() => undefined);
                  }}
                >
                  <Button type="link" size="small" danger data-testid={`package-group-delete:${group.name}`}>
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
        title={editing ? t('packages.groups.editTitle', { name: editing.name }) : t('packages.groups.addTitle')}
        okText={t('packages.common.save')}
        cancelText={t('packages.common.cancel')}
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setEditing(undefined)}
        forceRender
      >
        <Form<GroupDraft> form={form} layout="vertical" onFinish={save}>
          <Form.Item
            name="name"
            label={t('packages.groups.name')}
            rules={[
              { required: true, message: t('packages.common.required', { field: t('packages.groups.name') }) },
              { max: 64, message: t('packages.drawer.nameRule') },
              { pattern: NAME, message: t('packages.drawer.nameRule') },
            ]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="sort"
            label={t('packages.groups.sort')}
            rules={[
              {
                type: 'integer',
                min: 0,
                max: 9999,
                message: t('packages.common.countRule', { field: t('packages.groups.sort'), max: 9999 }),
              },
            ]}
          >
            <InputNumber precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="description"
            label={t('packages.groups.description')}
            rules={[{ max: 500, message: t('packages.drawer.descriptionRule') }]}
          >
            <Input.TextArea rows={3} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
};
