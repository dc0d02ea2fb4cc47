import type { Stream } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Spin from 'antd/es/spin';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { useApplyStatusOf } from '../sites/api.ts';
import { ApplyStatusLine } from '../sites/edit/ApplyStatusLine.tsx';
import { SITES_LOCALES } from '../sites/locales/bundle.ts';
import { useStream } from './api.ts';
import { STREAMS_LOCALES } from './locales/bundle.ts';
import { StreamFields } from './StreamFields.tsx';
import { type StreamDraft, streamDraft } from './streamPayload.ts';
import { useStreamSave } from './useStreamSave.ts';

const StreamForm = ({ stream }: { stream: Stream }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<StreamDraft>();
  const { save, saving } = useStreamSave(form, stream);
  return (
    <Form<StreamDraft> form={form} layout="vertical" initialValues={streamDraft(stream)} onFinish={save}>
      <StreamFields />
      <Button type="primary" htmlType="submit" loading={saving} data-testid="stream-save">
        {t('sites.save')}
      </Button>
    </Form>
  );
};

/** Spec §2 /stream/list/:id: one forwarding rule. */
export const Component = () => {
  const { t } = useLocales(STREAMS_LOCALES, SITES_LOCALES);
  const { id } = useParams();
  const stream = useStream(Number(id));
  const applyStatus = useApplyStatusOf('streams', Number(id));
  return (
    <section data-testid="stream-edit-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      {stream.data ? (
        <>
          <h2 style={{ fontSize: 18, fontWeight: 600, marginTop: 0 }}>
            {t('streams.edit.title', { port: stream.data.listen_port })}
          </h2>
          <ApplyStatusLine status={applyStatus} />
          <StreamForm key={stream.data.updated_at} stream={stream.data} />
        </>
      ) : (
        <Spin spinning={stream.isPending} />
      )}
    </section>
  );
};
