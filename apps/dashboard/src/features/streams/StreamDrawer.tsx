import type { Stream } from '@rampart/contracts';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { StreamFields } from './StreamFields.tsx';
import { NEW_STREAM, type StreamDraft, streamDraft } from './streamPayload.ts';
import { useStreamSave } from './useStreamSave.ts';

/** Adds a forwarding rule, or edits the one given. */
export const StreamDrawer = ({
  stream,
  onClose,
  onPackageRequired,
}: {
  stream: Stream | undefined;
  onClose: () => void;
  /** The master refused to add: the account needs a package; the list says so instead of this form. */
  onPackageRequired?: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<StreamDraft>();
  const { save, saving } = useStreamSave(form, stream, () => {
    onClose();
    onPackageRequired?.();
  });
  return (
    <Drawer
      open
      onClose={onClose}
      title={stream ? t('streams.edit.title', { port: stream.listen_port }) : t('streams.add.title')}
      size={640}
      extra={
        <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="stream-drawer-submit">
          {t('sites.save')}
        </Button>
      }
    >
      <Form<StreamDraft>
        form={form}
        layout="vertical"
        initialValues={stream ? streamDraft(stream) : NEW_STREAM}
        onFinish={async (draft) => {
          if (await save(draft)) onClose();
        }}
      >
        <StreamFields />
      </Form>
    </Drawer>
  );
};
