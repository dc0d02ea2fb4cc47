import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import { fieldErrorHandler } from '../../sites/serverErrors.ts';
import { isSystemRow, type ObjectKind, type ObjectTypes, useObjectActions } from '../api.ts';
import { formPath } from '../model/formPath.ts';
import { checkName } from '../model/problems.ts';
import { checkRule } from '../shared/formRules.ts';
import { useReachesEveryUser, useUserId } from '../shared/owners.ts';

interface ObjectDrawerProps<K extends ObjectKind, D extends object> {
  kind: K;
  /** The row to edit; undefined adds one. */
  row: ObjectTypes[K]['row'] | undefined;
  initialValues: D;
  toBody: (draft: D) => ObjectTypes[K]['body'];
  /** The form's top-level fields, where the master's field messages are shown. */
  fields: readonly string[];
  onClose: () => void;
  /** The kind's own fields; read-only for a user looking at a system row; `owner` owns (or will own) the row. */
  children: (readOnly: boolean, owner: number) => ReactNode;
}

/** Adds or edits a match, filter or rule group: the name, the kind's fields, and "system" for admins. */
export const ObjectDrawer = <K extends ObjectKind, D extends object>({
  kind,
  row,
  initialValues,
  toBody,
  fields,
  onClose,
  children,
}: ObjectDrawerProps<K, D>) => {
  const { t } = useTranslation();
  const http = useHttp();
  const feedback = useFeedback();
  const actions = useObjectActions(kind);
  const admin = useReachesEveryUser();
  const [form] = Form.useForm<D>();
  const [saving, submitting] = useSubmitting();
  const userId = useUserId();
  const system = Form.useWatch<boolean | undefined>('system', form);
  const readOnly = row !== undefined && isSystemRow(row) && !admin;
  const owner = row ? row.user_id : system ? 0 : (userId ?? 0);

  const save = async (draft: D) => {
    await submitting(async () => {
      const onError = fieldErrorHandler(form, http, ['name', ...fields], formPath);
      if (row) await actions.update(row.id, toBody(draft), { onError });
      else await actions.create(toBody(draft), { onError });
      feedback.success(t('protection.saved'));
      onClose();
    });
  };

  const title = !row
    ? t(`protection.${kind as ObjectKind}.add`)
    : t(readOnly ? 'protection.view' : 'protection.edit', { name: row.name });
  return (
    <Drawer
      open
      onClose={onClose}
      title={title}
      size={760}
      extra={
        !readOnly && (
          <Button type="primary" loading={saving} onClick={() => form.submit()} data-testid="protection-drawer-submit">
            {t('protection.save')}
          </Button>
        )
      }
    >
      <Form<D> form={form} layout="vertical" initialValues={initialValues} onFinish={save} disabled={readOnly}>
        {readOnly && <p data-testid="system-read-only">{t('protection.systemReadOnly')}</p>}
        <Form.Item name="name" label={t('protection.name')} rules={[checkRule(t, checkName)]}>
          <Input maxLength={64} />
        </Form.Item>
        {children(readOnly, owner)}
        {admin && !row && (
          <Form.Item name="system" valuePropName="checked" extra={t('protection.systemHelp')}>
            <Checkbox>{t('protection.system')}</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Drawer>
  );
};
