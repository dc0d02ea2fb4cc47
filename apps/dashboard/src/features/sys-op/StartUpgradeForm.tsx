import type { StartAgentUpgradeBody } from '@rampart/contracts';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { type AgentRelease, useSysOpActions } from './api.ts';
import { ConfirmedSubmit } from './ConfirmedSubmit.tsx';
import { SYS_OP_LOCALES } from './locales/bundle.ts';
import { integerRules } from './rules.ts';

type StartFields = Pick<StartAgentUpgradeBody, 'release_id' | 'wave_percent' | 'max_failures'>;
const FIELDS = ['release_id', 'wave_percent', 'max_failures'] as const;

/** Starts a rollout of a release, after a confirmation naming it. */
export const StartUpgradeForm = ({ releases }: { releases: AgentRelease[] }) => {
  const { t } = useLocales(SYS_OP_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useSysOpActions();
  const [form] = Form.useForm<StartFields>();
  const [saving, submitting] = useSubmitting();
  const releaseId = Form.useWatch('release_id', form);
  const version = releases.find((release) => release.id === releaseId)?.version ?? '';

  const submit = (values: StartFields) =>
    submitting(async () => {
      await actions.startUpgrade(
        { ...values, node_timeout_s: 600 },
        { onError: fieldErrorHandler(form, http, FIELDS) },
      );
      feedback.success(t('sysOp.upgrade.started'));
    });

  return (
    <Form<StartFields>
      form={form}
      layout="inline"
      initialValues={{ wave_percent: 20, max_failures: 0 }}
      onFinish={submit}
      data-testid="start-upgrade-form"
      style={{ rowGap: 8, marginBottom: 8 }}
    >
      <Form.Item
        name="release_id"
        label={t('sysOp.upgrade.release')}
        rules={[{ required: true, message: t('sysOp.upgrade.releaseRule') }]}
      >
        <Select
          style={{ width: 180 }}
          options={releases.map((release) => ({ value: release.id, label: release.version }))}
        />
      </Form.Item>
      <Form.Item
        name="wave_percent"
        label={t('sysOp.upgrade.wavePercent')}
        rules={integerRules(1, 100, t('sysOp.upgrade.wavePercentRule'))}
      >
        <InputNumber min={1} max={100} precision={0} />
      </Form.Item>
      <Form.Item
        name="max_failures"
        label={t('sysOp.upgrade.maxFailures')}
        rules={integerRules(0, 100_000, t('sysOp.upgrade.maxFailuresRule'))}
      >
        <InputNumber min={0} max={100_000} precision={0} />
      </Form.Item>
      <Form.Item>
        <ConfirmedSubmit
          form={form}
          title={t('sysOp.upgrade.confirm', { version })}
          text={t('sysOp.upgrade.start')}
          loading={saving}
        />
      </Form.Item>
    </Form>
  );
};
