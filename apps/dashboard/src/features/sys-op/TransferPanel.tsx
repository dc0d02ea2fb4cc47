import type { StartTransferBody } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import { useSysOpActions, useTransferLog } from './api.ts';
import { ConfirmedSubmit } from './ConfirmedSubmit.tsx';
import { SYS_OP_LOCALES } from './locales/bundle.ts';
import { OpLog } from './OpLog.tsx';
import { integerRules, MASTER_ADDRESS, patternRules } from './rules.ts';

const FIELDS = ['new_master', 'wait_minutes'] as const;

/** POST /v1/master/start-transfer and stop-transfer, with GET /v1/master/transfer-log. */
export const TransferPanel = () => {
  const { t } = useLocales(SYS_OP_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const log = useTransferLog();
  const actions = useSysOpActions();
  const [form] = Form.useForm<StartTransferBody>();
  const [saving, submitting] = useSubmitting();
  const address = Form.useWatch('new_master', form) ?? '';
  const open = log.data?.op?.state === 'running' || log.data?.op?.state === 'waiting';

  const submit = (values: StartTransferBody) =>
    submitting(async () => {
      await actions.startTransfer(values, { onError: fieldErrorHandler(form, http, FIELDS) });
      feedback.success(t('sysOp.transfer.started'));
    });

  return (
    <div data-testid="master-transfer">
      <p style={{ color: 'rgba(0,0,0,0.55)' }}>{t('sysOp.transfer.help')}</p>
      <Form<StartTransferBody>
        form={form}
        layout="vertical"
        style={{ maxWidth: 560 }}
        initialValues={{ wait_minutes: 60 }}
        onFinish={submit}
        data-testid="transfer-form"
      >
        <Form.Item
          name="new_master"
          label={t('sysOp.transfer.newMaster')}
          rules={patternRules(MASTER_ADDRESS, t('sysOp.transfer.newMasterRule'))}
        >
          <Input placeholder="https://cdn2.example.com" maxLength={300} />
        </Form.Item>
        <Form.Item
          name="wait_minutes"
          label={t('sysOp.transfer.wait')}
          rules={integerRules(1, 1440, t('sysOp.transfer.waitRule'))}
        >
          <InputNumber min={1} max={1440} precision={0} />
        </Form.Item>
        <Space>
          <ConfirmedSubmit
            form={form}
            title={t('sysOp.transfer.confirm', { address })}
            text={t('sysOp.transfer.start')}
            loading={saving}
            disabled={open}
          />
          <Popconfirm
            title={t('sysOp.transfer.stopConfirm')}
            onConfirm={() =>
              actions
                .stopTransfer()
                .then(() => feedback.success(t('sysOp.transfer.stopped')))
                .catch(() => undefined)
            }
          >
            <Button disabled={!open}>{t('sysOp.transfer.stop')}</Button>
          </Popconfirm>
        </Space>
      </Form>
      <div style={{ marginTop: 16 }}>
        <OpLog op={log.data?.op} testId="transfer-log" />
      </div>
    </div>
  );
};
