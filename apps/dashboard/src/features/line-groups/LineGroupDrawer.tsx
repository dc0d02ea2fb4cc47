import { HostLabel, type LineGroupView, ObjectName } from '@rampart/contracts';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useEffect, useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { type CnameDomain, useLineGroupActions } from './api.ts';
import { LINE_GROUPS_LOCALES } from './locales/bundle.ts';

interface GroupDraft {
  name: string;
  cname_domain_id: number;
  host: string;
  backup_group_id: number;
  is_default: boolean;
}

const FIELDS = ['name', 'cname_domain_id', 'host', 'backup_group_id', 'is_default'] as const;
const NAME = new RegExp((ObjectName as unknown as { pattern: string }).pattern);
const HOST = new RegExp((HostLabel as unknown as { pattern: string }).pattern);

interface LineGroupDrawerProps {
  /** null: adding one. */
  group: LineGroupView | null;
  groups: readonly LineGroupView[];
  domains: readonly CnameDomain[];
  onClose: () => void;
}

/** Adds or edits a line group's name, CNAME domain and host, backup group and default flag. */
export const LineGroupDrawer = ({ group, groups, domains, onClose }: LineGroupDrawerProps) => {
  const { t } = useLocales(LINE_GROUPS_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useLineGroupActions();
  const [form] = Form.useForm<GroupDraft>();
  const [saving, setSaving] = useState(false);
  const domainId = Form.useWatch('cname_domain_id', form);
  const domain = domains.find((entry) => entry.id === domainId)?.domain ?? '…';
  const defaultDomainId = domains.find((entry) => entry.is_default)?.id;

  // The CNAME domains may arrive after the drawer opened: a new group still starts on the default one,
  // unless the operator has already chosen.
  useEffect(() => {
    if (group || defaultDomainId === undefined || form.isFieldTouched('cname_domain_id')) return;
    if (!form.getFieldValue('cname_domain_id')) form.setFieldValue('cname_domain_id', defaultDomainId);
  }, [group, defaultDomainId, form]);

  const save = async (draft: GroupDraft) => {
    const body = {
      name: draft.name.trim(),
      cname_domain_id: draft.cname_domain_id || null,
      host: draft.host.trim(),
      backup_group_id: draft.backup_group_id || null,
      is_default: draft.is_default,
    };
    const onError = fieldErrorHandler(form, http, FIELDS);
    setSaving(true);
    try {
      if (group) await actions.updateGroup(group.id, body, { onError });
      else await actions.createGroup(body, { onError });
      feedback.success(t('lineGroups.done.saved'));
      onClose();
    } catch {
      // Shown next to the field or as a popup by onError.
    } finally {
      setSaving(false);
    }
  };
  const required = (field: string) => ({ required: true, message: t('lineGroups.drawer.required', { field }) });
  const none = { value: 0, label: t('lineGroups.drawer.none') };

  return (
    <Drawer
      open
      onClose={onClose}
      size={480}
      title={group ? t('lineGroups.drawer.editTitle', { name: group.name }) : t('lineGroups.drawer.addTitle')}
      extra={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="line-group-submit">
          {t('lineGroups.drawer.save')}
        </Button>
      }
    >
      <Form<GroupDraft>
        form={form}
        layout="vertical"
        onFinish={save}
        initialValues={{
          name: group?.name ?? '',
          cname_domain_id: group?.cname_domain_id ?? defaultDomainId ?? 0,
          host: group?.host ?? '',
          backup_group_id: group?.backup_group_id ?? 0,
          is_default: group?.is_default ?? false,
        }}
      >
        <Form.Item
          name="name"
          label={t('lineGroups.drawer.name')}
          rules={[
            required(t('lineGroups.drawer.name')),
            { max: 64, message: t('lineGroups.drawer.nameRule') },
            { pattern: NAME, message: t('lineGroups.drawer.nameRule') },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="cname_domain_id"
          label={t('lineGroups.drawer.cnameDomain')}
          extra={t('lineGroups.drawer.cnameDomainHelp')}
        >
          <Select<number>
            aria-label={t('lineGroups.drawer.cnameDomain')}
            options={[none, ...domains.map((entry) => ({ value: entry.id, label: entry.domain }))]}
          />
        </Form.Item>
        <Form.Item
          name="host"
          label={t('lineGroups.drawer.host')}
          extra={t('lineGroups.drawer.hostHelp', { domain })}
          rules={[{ pattern: HOST, message: t('lineGroups.drawer.hostRule') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="backup_group_id"
          label={t('lineGroups.drawer.backup')}
          extra={t('lineGroups.drawer.backupHelp')}
        >
          <Select<number>
            aria-label={t('lineGroups.drawer.backup')}
            options={[
              none,
              ...groups
                .filter((entry) => entry.id !== group?.id)
                .map((entry) => ({ value: entry.id, label: entry.name })),
            ]}
          />
        </Form.Item>
        <Form.Item name="is_default" label={t('lineGroups.drawer.isDefault')} valuePropName="checked">
          <Switch aria-label={t('lineGroups.drawer.isDefault')} />
        </Form.Item>
      </Form>
    </Drawer>
  );
};
