import { type AdminUser, ALL_ADMIN_PERMISSIONS, Email, Phone, Qq, type SavedUser, Username } from '@rampart/contracts';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Divider from 'antd/es/divider';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { ResetTwoFactorButton } from '../two-factor/ResetTwoFactorButton.tsx';
import { useUserActions } from './api.ts';
import { permissionLabel } from './permissionLabel.ts';
import { createBody, newUser, USER_FIELDS, type UserDraft, updateBody, userDraft } from './userDraft.ts';

interface UserDrawerProps {
  user: AdminUser | undefined;
  groups: readonly { id: number; name: string; is_default: boolean }[];
  onClose: () => void;
  /** A password the server generated, shown once by the page. */
  onGenerated: (account: string, password: string) => void;
}

/** The contract's rule for a field, checked in the form before the server checks it again. */
const pattern = (schema: unknown) => new RegExp((schema as { pattern: string }).pattern);

/** Adds a user, or edits the one given: profile, password, type and access, group. */
export const UserDrawer = ({ user, groups, onClose, onGenerated }: UserDrawerProps) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useUserActions();
  const [form] = Form.useForm<UserDraft>();
  const [saving, setSaving] = useState(false);
  const type = Form.useWatch('type', form);
  const passwordMode = Form.useWatch('passwordMode', form);
  // The groups may arrive after the drawer opened (a quick click on Add user): a new user still
  // starts in the default group, unless the group was chosen meanwhile.
  const defaultGroup = user ? undefined : newUser(groups).group;
  useEffect(() => {
    if (defaultGroup && !form.isFieldTouched('group')) form.setFieldValue('group', defaultGroup);
  }, [defaultGroup, form]);

  const save = async (draft: UserDraft) => {
    const onError = fieldErrorHandler(form, http, USER_FIELDS);
    setSaving(true);
    try {
      let saved: SavedUser | undefined;
      if (user) {
        const body = updateBody(user, draft);
        if (Object.keys(body).length > 0) saved = await actions.update(user.id, body, { onError });
      } else {
        saved = await actions.create(createBody(draft), { onError });
      }
      feedback.success(t('users.drawer.saved'));
      if (saved?.password) onGenerated(saved.account, saved.password);
      onClose();
    } catch {
      // Shown next to the field or as a popup by onError.
    } finally {
      setSaving(false);
    }
  };

  const required = (field: string) => ({ required: true, message: t('users.drawer.required', { field }) });
  return (
    <Drawer
      open
      onClose={onClose}
      title={user ? t('users.drawer.editTitle', { account: user.account }) : t('users.drawer.addTitle')}
      size={560}
      extra={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="user-drawer-submit">
          {t('users.drawer.save')}
        </Button>
      }
    >
      <Form<UserDraft>
        form={form}
        layout="vertical"
        initialValues={user ? userDraft(user) : newUser(groups)}
        onFinish={save}
      >
        <Form.Item
          name="username"
          label={t('users.drawer.username')}
          rules={[
            required(t('users.drawer.username')),
            // Two rules: a rule with a pattern checks only the pattern.
            { min: 3, max: 32, message: t('users.drawer.usernameRule') },
            { pattern: pattern(Username), message: t('users.drawer.usernameRule') },
          ]}
        >
          <Input disabled={Boolean(user)} autoComplete="off" />
        </Form.Item>
        <Form.Item name="passwordMode" label={t('users.drawer.passwordMode')}>
          <Radio.Group
            options={[
              ...(user ? [{ value: 'keep', label: t('users.drawer.passwordKeep') }] : []),
              { value: 'generate', label: t('users.drawer.passwordGenerate') },
              { value: 'set', label: t('users.drawer.passwordSet') },
            ]}
          />
        </Form.Item>
        {passwordMode === 'set' && (
          <Form.Item
            name="password"
            label={user ? t('users.drawer.newPassword') : t('users.drawer.password')}
            rules={[
              required(t('users.drawer.password')),
              { min: 6, max: 128, message: t('users.drawer.passwordRule') },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('users.drawer.name')} rules={[{ max: 64 }]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('users.drawer.email')}
          rules={[{ pattern: pattern(Email), message: t('users.drawer.emailRule') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t('users.drawer.phone')}
          rules={[{ pattern: pattern(Phone), message: t('users.drawer.phoneRule') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="qq"
          label={t('users.drawer.qq')}
          rules={[{ pattern: pattern(Qq), message: t('users.drawer.qqRule') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="type" label={t('users.drawer.type')}>
          <Radio.Group
            options={[
              { value: 2, label: t('users.type.2') },
              { value: 1, label: t('users.type.1') },
            ]}
          />
        </Form.Item>
        {type === 2 && (
          <Form.Item
            name="packageExempt"
            label={t('users.drawer.packageExempt')}
            extra={t('users.drawer.packageExemptHelp')}
            valuePropName="checked"
          >
            <Switch aria-label={t('users.drawer.packageExempt')} data-testid="user-package-exempt" />
          </Form.Item>
        )}
        {type === 1 && (
          <Form.Item name="access" label={t('users.drawer.access')} extra={t('users.drawer.accessHelp')}>
            <Checkbox.Group
              options={ALL_ADMIN_PERMISSIONS.map((code) => ({ value: code, label: permissionLabel(t, code) }))}
            />
          </Form.Item>
        )}
        <Form.Item name="group" label={t('users.drawer.group')}>
          <Select<number>
            aria-label={t('users.drawer.group')}
            options={[
              { value: 0, label: t('users.list.noGroup') },
              ...groups.map((g) => ({ value: g.id, label: g.name })),
            ]}
          />
        </Form.Item>
      </Form>
      {user && (
        <>
          <Divider titlePlacement="start">{t('users.drawer.twoFactor')}</Divider>
          <p>{t('users.drawer.twoFactorHelp')}</p>
          <ResetTwoFactorButton userId={user.id} account={user.account} />
        </>
      )}
    </Drawer>
  );
};
