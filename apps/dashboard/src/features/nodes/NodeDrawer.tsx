import { type NodeView, ObjectName, type PendingNode } from '@rampart/contracts';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useState } from 'react';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { type NodePlace, useNodeActions } from './api.ts';
import { NODES_LOCALES } from './locales/bundle.ts';
import { acceptBody, NODE_FIELDS, type NodeDraft, nodeDraft, pendingDraft, updateBody, wrongIp } from './nodeDraft.ts';

/** What the drawer works on: a node to edit, or a pending node to accept. */
export type NodeEditing = { node: NodeView } | { pending: PendingNode };

interface NodeDrawerProps {
  editing: NodeEditing;
  groups: readonly NodePlace[];
  regions: readonly NodePlace[];
  onClose: () => void;
}

const NAME = new RegExp((ObjectName as unknown as { pattern: string }).pattern);

/** Edits a node, or accepts a pending one with its name, IPs, line group, region and ports. */
export const NodeDrawer = ({ editing, groups, regions, onClose }: NodeDrawerProps) => {
  const { t } = useLocales(NODES_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useNodeActions();
  const [form] = Form.useForm<NodeDraft>();
  const [saving, setSaving] = useState(false);
  const accepting = 'pending' in editing;
  const title = accepting
    ? t('nodes.drawer.acceptTitle', { name: editing.pending.hostname })
    : t('nodes.drawer.editTitle', { name: editing.node.name });

  const save = async (draft: NodeDraft) => {
    const onError = fieldErrorHandler(form, http, NODE_FIELDS, (path) =>
      path[0] === 'group_id' ? ['group'] : path[0] === 'region_id' ? ['region'] : path,
    );
    setSaving(true);
    try {
      if (accepting) {
        await actions.accept(acceptBody(editing.pending.id, draft), { onError });
        feedback.success(t('nodes.done.accepted', { name: draft.name }));
      } else {
        const body = updateBody(editing.node, draft);
        if (Object.keys(body).length > 0) await actions.update(editing.node.id, body, { onError });
        feedback.success(t('nodes.done.saved'));
      }
      onClose();
    } catch {
      // Shown next to the field or as a popup by onError.
    } finally {
      setSaving(false);
    }
  };

  const required = (field: string) => ({ required: true, message: t('nodes.drawer.required', { field }) });
  const port = (name: 'http_port' | 'https_port', label: string) => (
    <Form.Item
      name={name}
      label={label}
      rules={[required(label), { type: 'integer', min: 1, max: 65535, message: t('nodes.drawer.portRule') }]}
    >
      <InputNumber min={1} max={65535} precision={0} style={{ width: 160 }} aria-label={label} />
    </Form.Item>
  );
  const placeOptions = (places: readonly NodePlace[]) => [
    { value: 0, label: t('nodes.list.none') },
    ...places.map((place) => ({ value: place.id, label: place.name })),
  ];

  return (
    <Drawer
      open
      onClose={onClose}
      title={title}
      size={520}
      extra={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="node-drawer-submit">
          {accepting ? t('nodes.drawer.accept') : t('nodes.drawer.save')}
        </Button>
      }
    >
      <Form<NodeDraft>
        form={form}
        layout="vertical"
        initialValues={accepting ? pendingDraft(editing.pending) : nodeDraft(editing.node)}
        onFinish={save}
      >
        <Form.Item
          name="name"
          label={t('nodes.drawer.name')}
          rules={[
            required(t('nodes.drawer.name')),
            { max: 64, message: t('nodes.drawer.nameRule') },
            { pattern: NAME, message: t('nodes.drawer.nameRule') },
          ]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="ips"
          label={t('nodes.drawer.ips')}
          extra={t('nodes.drawer.ipsHelp')}
          rules={[
            { required: true, type: 'array', min: 1, message: t('nodes.drawer.required', { field: 'IP' }) },
            { type: 'array', max: 32, message: t('nodes.drawer.ipsMax') },
            {
              validator: async (_, value: string[] | undefined) => {
                const wrong = wrongIp((value ?? []).map((ip) => ip.trim()));
                if (wrong !== undefined) throw new Error(t('nodes.drawer.ipRule', { ip: wrong }));
              },
            },
          ]}
        >
          <Select mode="tags" open={false} tokenSeparators={[',', ' ']} aria-label={t('nodes.drawer.ips')} />
        </Form.Item>
        <Form.Item name="group" label={t('nodes.drawer.group')}>
          <Select<number> aria-label={t('nodes.drawer.group')} options={placeOptions(groups)} />
        </Form.Item>
        <Form.Item name="region" label={t('nodes.drawer.region')}>
          <Select<number> aria-label={t('nodes.drawer.region')} options={placeOptions(regions)} />
        </Form.Item>
        {port('http_port', t('nodes.drawer.httpPort'))}
        {port('https_port', t('nodes.drawer.httpsPort'))}
        <Form.Item
          name="max_cache_size_mb"
          label={t('nodes.drawer.cache')}
          rules={[
            required(t('nodes.drawer.cache')),
            { type: 'integer', min: 16, max: 16_777_216, message: t('nodes.drawer.cacheRule') },
          ]}
        >
          <InputNumber
            min={16}
            max={16_777_216}
            precision={0}
            style={{ width: 200 }}
            aria-label={t('nodes.drawer.cache')}
          />
        </Form.Item>
        <Form.Item name="enabled" label={t('nodes.drawer.enabled')} valuePropName="checked">
          <Switch aria-label={t('nodes.drawer.enabled')} />
        </Form.Item>
      </Form>
    </Drawer>
  );
};
