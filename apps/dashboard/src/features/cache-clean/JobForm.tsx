import { useQueryClient } from '@tanstack/react-query';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import TextArea from 'antd/es/input/TextArea';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { badUrl, type JobType, jobUrls } from './jobPayload.ts';

/** One kind of cache job: a URL list checked here for shape and by the master for ownership. */
export const JobForm = ({ type }: { type: JobType }) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ urls: string }>();
  const [saving, submitting] = useSubmitting();
  const submit = async ({ urls }: { urls: string }) => {
    await submitting(async () => {
      await http.post('/v1/jobs', { type, urls: jobUrls(urls) }, { onError: fieldErrorHandler(form, http, ['urls']) });
      await queryClient.invalidateQueries({ queryKey: ['jobs'] });
      feedback.success(t('cacheClean.submitted'));
      form.resetFields();
    });
  };
  return (
    <Form form={form} layout="vertical" onFinish={submit}>
      <Form.Item
        name="urls"
        label={t(`cacheClean.help.${type}`)}
        rules={[
          {
            validator: async (_rule, value: string | undefined) => {
              const urls = jobUrls(value);
              if (urls.length === 0 || urls.length > 1000) throw new Error(t('cacheClean.rule.count'));
              const wrong = badUrl(urls);
              if (wrong !== undefined) throw new Error(t('cacheClean.rule.url', { url: wrong }));
            },
          },
        ]}
      >
        <TextArea rows={6} aria-label={t(`cacheClean.type.${type}`)} placeholder="https://www.example.com/index.html" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {t('cacheClean.submit')}
      </Button>
    </Form>
  );
};
