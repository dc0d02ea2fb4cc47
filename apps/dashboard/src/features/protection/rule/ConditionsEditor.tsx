import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { checkConditionCount, NEW_CONDITION } from '../model/conditions.ts';
import { ConditionFields } from '../shared/ConditionFields.tsx';
import { problemText } from '../shared/formRules.ts';
import { ListButtons } from '../shared/ListButtons.tsx';

/** The conditions of a match, all of which must hold. */
export const ConditionsEditor = ({ disabled = false }: { disabled?: boolean }) => {
  const { t } = useTranslation();
  return (
    <Form.List
      name="conditions"
      rules={[
        {
          validator: async (_rule, conditions: unknown[] | undefined) => {
            const problem = checkConditionCount(conditions?.length ?? 0);
            if (problem) throw new Error(problemText(t, problem));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <div data-testid="conditions-editor">
          {fields.map((field, index) => {
            const label = t('protection.condition.label', { index: index + 1 });
            return (
              <div
                key={field.key}
                style={{ display: 'flex', gap: 8, alignItems: 'flex-start', borderBottom: '1px solid #f0f0f0' }}
              >
                <div style={{ flex: 1, paddingTop: 8 }}>
                  <ConditionFields
                    name={[field.name]}
                    path={['conditions', field.name]}
                    label={label}
                    disabled={disabled}
                  />
                </div>
                <div style={{ paddingTop: 8 }}>
                  <ListButtons index={index} count={fields.length} label={label} remove={remove} disabled={disabled} />
                </div>
              </div>
            );
          })}
          <Form.ErrorList errors={errors} />
          {!disabled && (
            <Button icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => add({ ...NEW_CONDITION })}>
              {t('protection.condition.add')}
            </Button>
          )}
        </div>
      )}
    </Form.List>
  );
};
