import type { ConditionField, ConditionOp } from '@rampart/contracts';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import type { FieldPath } from '../../sites/edgeRules.ts';
import {
  CONDITION_FIELDS,
  checkHeader,
  checkOp,
  checkValues,
  opAfterFieldChange,
  opsFor,
} from '../model/conditions.ts';
import { checkRule } from './formRules.ts';

interface ConditionFieldsProps {
  /** The condition's name inside its Form.List item: `[field.name]` or `[field.name, 'condition']`. */
  name: FieldPath;
  /** The same condition's full path in the form, to read and set its field and op. */
  path: FieldPath;
  /** Names the condition in labels and messages: "Condition 2", "Entry 1". */
  label: string;
  disabled?: boolean;
}

/** Field, op (CIDR for IP only), header name for the header field, values one per line, and negate. */
export const ConditionFields = ({ name, path, label, disabled = false }: ConditionFieldsProps) => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const field = Form.useWatch<ConditionField | undefined>([...path, 'field'], form);
  const op = Form.useWatch<ConditionOp | undefined>([...path, 'op'], form);
  const ops = field === undefined ? [] : opsFor(field);

  const changeField = (next: ConditionField) => {
    form.setFieldValue([...path, 'op'], opAfterFieldChange(next, form.getFieldValue([...path, 'op'])));
  };

  return (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'flex-start' }}>
      <Form.Item name={[...name, 'field']} style={{ width: 150, marginBottom: 8 }}>
        <Select<ConditionField>
          aria-label={t('protection.condition.fieldOf', { label })}
          disabled={disabled}
          onChange={changeField}
          options={CONDITION_FIELDS.map((value) => ({ value, label: t(`protection.field.${value}`) }))}
        />
      </Form.Item>
      {field === 'header' && (
        <Form.Item
          name={[...name, 'header']}
          style={{ width: 170, marginBottom: 8 }}
          rules={[checkRule(t, (value) => checkHeader('header', typeof value === 'string' ? value : undefined))]}
        >
          <Input
            aria-label={t('protection.condition.headerOf', { label })}
            placeholder={t('protection.condition.header')}
            disabled={disabled}
          />
        </Form.Item>
      )}
      <Form.Item
        name={[...name, 'op']}
        style={{ width: 130, marginBottom: 8 }}
        dependencies={[[...path, 'field']]}
        rules={[
          ({ getFieldValue }) =>
            checkRule(t, (value) => checkOp(getFieldValue([...path, 'field']), value as ConditionOp | undefined)),
        ]}
      >
        <Select<ConditionOp>
          aria-label={t('protection.condition.opOf', { label })}
          disabled={disabled}
          options={ops.map((value) => ({ value, label: t(`protection.op.${value}`) }))}
        />
      </Form.Item>
      <Form.Item
        name={[...name, 'valuesText']}
        style={{ flex: '1 1 220px', marginBottom: 8 }}
        dependencies={[
          [...path, 'op'],
          [...path, 'field'],
        ]}
        rules={[
          ({ getFieldValue }) =>
            checkRule(t, (value) =>
              checkValues(
                getFieldValue([...path, 'op']),
                typeof value === 'string' ? value : undefined,
                getFieldValue([...path, 'field']),
              ),
            ),
        ]}
      >
        <TextArea
          rows={2}
          autoSize={{ minRows: 1, maxRows: 6 }}
          aria-label={t('protection.condition.valuesOf', { label })}
          placeholder={t(
            field === 'country'
              ? 'protection.condition.countryPlaceholder'
              : op === 'cidr'
                ? 'protection.condition.cidrPlaceholder'
                : 'protection.condition.values',
          )}
          disabled={disabled}
        />
      </Form.Item>
      <Form.Item name={[...name, 'negate']} valuePropName="checked" style={{ marginBottom: 8 }}>
        <Checkbox aria-label={t('protection.condition.negateOf', { label })} disabled={disabled}>
          {t('protection.condition.negate')}
        </Checkbox>
      </Form.Item>
    </div>
  );
};
