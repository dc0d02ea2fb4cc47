import type { Announcement, AnnouncementBody } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromLocalInput, toLocalInput } from './localTime.ts';

interface FormValues {
  title_zh: string;
  text_zh: string;
  title_en: string;
  text_en: string;
  starts_at: string;
  ends_at: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Create (announcement null) or edit an announcement: both languages' title and text, shown from and until. */
export const AnnouncementForm = ({
  open,
  announcement,
  onSave,
  onClose,
}: {
  open: boolean;
  announcement: Announcement | null;
  onSave: (body: AnnouncementBody) => Promise<void>;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const [busy, setBusy] = useState(false);
  const required = [{ required: true, whitespace: true, message: t('announcements.form.required') }];

  useEffect(() => {
    if (!open) return;
    const now = new Date().toISOString();
    form.setFieldsValue(
      announcement
        ? {
            ...announcement,
            starts_at: toLocalInput(announcement.starts_at),
            ends_at: toLocalInput(announcement.ends_at),
          }
        : {
            title_zh: '',
            text_zh: '',
            title_en: '',
            text_en: '',
            starts_at: toLocalInput(now),
            ends_at: toLocalInput(new Date(Date.now() + 7 * DAY_MS).toISOString()),
          },
    );
  }, [open, announcement, form]);

  const submit = async () => {
    const values = await form.validateFields();
    setBusy(true);
    try {
      await onSave({
        title_zh: values.title_zh,
        text_zh: values.text_zh,
        title_en: values.title_en,
        text_en: values.text_en,
        starts_at: fromLocalInput(values.starts_at) ?? '',
        ends_at: fromLocalInput(values.ends_at) ?? '',
      });
      onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Drawer
      open={open}
      size={560}
      title={announcement ? t('announcements.form.editTitle') : t('announcements.form.createTitle')}
      onClose={onClose}
      forceRender
      extra={
        <Button type="primary" loading={busy} onClick={() => submit().catch(() => undefined)}>
          {t('announcements.save')}
        </Button>
      }
    >
      {!announcement && (
        <Alert type="info" showIcon title={t('announcements.form.sendNote')} style={{ marginBottom: 16 }} />
      )}
      <Form<FormValues> form={form} layout="vertical" data-testid="announcement-form">
        <Form.Item name="title_zh" label={t('announcements.form.titleZh')} rules={[...required, { max: 200 }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="text_zh" label={t('announcements.form.textZh')} rules={[...required, { max: 5000 }]}>
          <Input.TextArea rows={4} maxLength={5000} />
        </Form.Item>
        <Form.Item name="title_en" label={t('announcements.form.titleEn')} rules={[...required, { max: 200 }]}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="text_en" label={t('announcements.form.textEn')} rules={[...required, { max: 5000 }]}>
          <Input.TextArea rows={4} maxLength={5000} />
        </Form.Item>
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="starts_at" label={t('announcements.form.startsAt')} rules={required} style={{ flex: 1 }}>
            <Input type="datetime-local" />
          </Form.Item>
          <Form.Item name="ends_at" label={t('announcements.form.endsAt')} rules={required} style={{ flex: 1 }}>
            <Input type="datetime-local" />
          </Form.Item>
        </div>
      </Form>
    </Drawer>
  );
};
