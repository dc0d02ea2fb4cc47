import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { type UserGroup, UserGroupDescription, UserGroupName } from '@rampart/contracts';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useUserGroupActions, useUserGroups } from './api.ts';

interface GroupDraft {
  name: string;
  description: string;
  is_default: boolean;
}

type Editing = { group: UserGroup | undefined } | null;

const maxLength = (schema: unknown) => (schema as { maxLength: number }).maxLength;

/** The user groups: name, description, the default one for new users, how many users each holds. */
export const UserGroupsTab = () => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const groups = useUserGroups();
  const actions = useUserGroupActions();
  const [editing, setEditing] = useState<Editing>(null);
  const [form] = Form.useForm<GroupDraft>();
  const [saving, setSaving] = useState(false);

  const open = (group: UserGroup | undefined) => {
    form.setFieldsValue(
      group
        ? { name: group.name, description: group.description, is_default: group.is_default }
        : { name: '', description: '', is_default: false },
    );
    setEditing({ group });
  };
  const save = async (draft: GroupDraft) => {
    const onError = fieldErrorHandler(form, http, ['name', 'description', 'is_default']);
    setSaving(true);
    try {
      if (editing?.group) await actions.update(editing.group.id, draft, { onError });
      else await actions.create(draft, { onError });
      feedback.success(t('users.groups.saved'));
      setEditing(null);
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 16 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open(undefined)}>
          {t('users.groups.add')}
        </Button>
      </div>
      <Table<UserGroup>
        rowKey="id"
        size="middle"
        data-testid="user-groups"
        loading={groups.isFetching}
        dataSource={groups.data ?? []}
        pagination={false}
        columns={[
          { key: 'id', dataIndex: 'id', title: 'ID', width: 80 },
          {
            key: 'name',
            dataIndex: 'name',
            title: t('users.groups.name'),
            render: (name: string, group) => (
              <Space>
                {name}
                {group.is_default && <Tag color="blue">{t('users.groups.default')}</Tag>}
              </Space>
            ),
          },
          { key: 'description', dataIndex: 'description', title: t('users.groups.description') },
          { key: 'user_count', dataIndex: 'user_count', title: t('users.groups.users') },
          {
            key: 'actions',
            title: t('users.groups.actions'),
            render: (_, group) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => open(group)}>
                  {t('users.groups.edit')}
                </Button>
                <Popconfirm
                  title={t('users.groups.confirmDelete', { name: group.name })}
                  okText={t('users.confirm.ok')}
                  cancelText={t('users.confirm.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => actions.remove(group.id).catch(() => undefined)}
                >
                  <Button type="link" size="small" danger data-testid={`group-delete:${group.name}`}>
                    {t('users.groups.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing?.group ? t('users.groups.editTitle', { name: editing.group.name }) : t('users.groups.addTitle')}
        okText={t('users.drawer.save')}
        cancelText={t('users.confirm.cancel')}
        confirmLoading={saving}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
        forceRender
      >
        <Form<GroupDraft> form={form} layout="vertical" onFinish={save}>
          <Form.Item
            name="name"
            label={t('users.groups.name')}
            rules={[
              {
                required: true,
                whitespace: true,
                max: maxLength(UserGroupName),
                message: t('users.groups.nameRequired'),
              },
            ]}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="description"
            label={t('users.groups.description')}
            rules={[{ max: maxLength(UserGroupDescription) }]}
          >
            <Input.TextArea rows={3} />
          </Form.Item>
          <Form.Item name="is_default" valuePropName="checked">
            <Checkbox>{t('users.groups.isDefault')}</Checkbox>
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
};
