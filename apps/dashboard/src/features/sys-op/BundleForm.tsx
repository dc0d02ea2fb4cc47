import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useState } from 'react';
import { useSubmitting } from '../../shared/form/useSubmitting.ts';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { fieldErrorHandler } from '../sites/serverErrors.ts';
import type { BundleUpload } from './api.ts';
import { ConfirmedSubmit } from './ConfirmedSubmit.tsx';
import { SYS_OP_LOCALES } from './locales/bundle.ts';
import { patternRules, RELEASE_VERSION, SHA256_HEX } from './rules.ts';

interface BundleFields {
  version: string;
  sha256: string;
}

/**
 * A release bundle with its version and published SHA-256: for an agent release, or (with a
 * confirmation, since it backs up and switches the master) a master upgrade.
 */
export const BundleForm = ({
  testId,
  submitText,
  confirmText,
  onSubmit,
}: {
  testId: string;
  submitText: string;
  confirmText?: (version: string) => string;
  onSubmit: (bundle: BundleUpload, options: RequestOptions) => Promise<void>;
}) => {
  const { t } = useLocales(SYS_OP_LOCALES);
  const http = useHttp();
  const [form] = Form.useForm<BundleFields>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState(false);
  const [saving, submitting] = useSubmitting();
  const version = Form.useWatch('version', form) ?? '';

  const submit = async (values: BundleFields) => {
    if (!file) {
      setFileError(true);
      return;
    }
    await submitting(async () => {
      await onSubmit(
        { file, version: values.version, sha256: values.sha256 },
        { onError: fieldErrorHandler(form, http, ['version', 'sha256']) },
      );
      form.resetFields();
      setFile(null);
    });
  };
  const submitButton = confirmText ? (
    <ConfirmedSubmit
      form={form}
      title={confirmText(version)}
      text={submitText}
      loading={saving}
      ready={() => {
        setFileError(!file);
        return file !== null;
      }}
    />
  ) : (
    <Button type="primary" htmlType="submit" loading={saving}>
      {submitText}
    </Button>
  );

  return (
    <Form<BundleFields> form={form} layout="vertical" onFinish={submit} data-testid={testId} style={{ maxWidth: 560 }}>
      <Form.Item
        label={t('sysOp.release.file')}
        required
        validateStatus={fileError ? 'error' : undefined}
        help={fileError ? t('sysOp.release.fileRule') : undefined}
      >
        <input
          type="file"
          accept=".tar.gz,.tgz,application/gzip"
          aria-label={t('sysOp.release.file')}
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setFileError(false);
          }}
        />
      </Form.Item>
      <Form.Item
        name="version"
        label={t('sysOp.release.version')}
        rules={patternRules(RELEASE_VERSION, t('sysOp.release.versionRule'))}
      >
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item
        name="sha256"
        label={t('sysOp.release.sha256')}
        rules={patternRules(SHA256_HEX, t('sysOp.release.sha256Rule'))}
      >
        <Input maxLength={64} style={{ fontFamily: 'monospace' }} />
      </Form.Item>
      <Form.Item>{submitButton}</Form.Item>
    </Form>
  );
};
