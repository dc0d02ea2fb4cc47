import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { RuleAction } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import {
  checkLineBanSeconds,
  checkLineCount,
  checkPicked,
  type LineRow,
  NEW_LINE,
  RULE_ACTIONS,
} from '../model/groupPayload.ts';
import { checkRule, problemText } from '../shared/formRules.ts';
import { ListButtons } from '../shared/ListButtons.tsx';
import { ObjectSelect } from '../shared/ObjectSelect.tsx';
import { usableOwners } from '../shared/owners.ts';

const row = { display: 'flex', gap: 8, alignItems: 'flex-start', flexWrap: 'wrap' } as const;

/** The ordered lines of a rule group: requests a match selects must pass a filter, or get the action. */
export const RuleLinesEditor = ({ disabled = false, owner }: { disabled?: boolean; owner: number }) => {
  const { t } = useTranslation();
  const owners = usableOwners(owner);
  const lines = Form.useWatch<LineRow[] | undefined>('rules');
  return (
    <Form.List
      name="rules"
      rules={[
        {
          validator: async (_rule, lines: unknown[] | undefined) => {
            const problem = checkLineCount(lines?.length ?? 0);
            if (problem) throw new Error(problemText(t, problem));
          },
        },
      ]}
    >
      {(fields, { add, remove, move }, { errors }) => (
        <div data-testid="rule-lines-editor">
          {fields.map((field, index) => {
            const label = t('protection.line.label', { index: index + 1 });
            return (
              <div key={field.key} style={row}>
                <span style={{ width: 24, paddingTop: 5 }}>{index + 1}.</span>
                <Form.Item
                  name={[field.name, 'match_id']}
                  style={{ flex: '1 1 120px' }}
                  rules={[checkRule(t, checkPicked)]}
                >
                  <ObjectSelect
                    kind="matches"
                    owners={owners}
                    aria-label={t('protection.line.matchOf', { label })}
                    disabled={disabled}
                  />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'filter_id']}
                  style={{ flex: '1 1 120px' }}
                  rules={[checkRule(t, checkPicked)]}
                >
                  <ObjectSelect
                    kind="filters"
                    owners={owners}
                    aria-label={t('protection.line.filterOf', { label })}
                    disabled={disabled}
                  />
                </Form.Item>
                <Form.Item name={[field.name, 'action']} style={{ width: 130 }}>
                  <Select<RuleAction>
                    aria-label={t('protection.line.actionOf', { label })}
                    options={RULE_ACTIONS.map((value) => ({ value, label: t(`protection.action.${value}`) }))}
                  />
                </Form.Item>
                {lines?.[field.name]?.action === 'ban' && (
                  <Form.Item name={[field.name, 'ban_seconds']} rules={[checkRule(t, checkLineBanSeconds)]}>
                    <InputNumber
                      precision={0}
                      style={{ width: 110 }}
                      aria-label={t('protection.line.banSecondsOf', { label })}
                      suffix={t('protection.seconds')}
                    />
                  </Form.Item>
                )}
                <ListButtons
                  index={index}
                  count={fields.length}
                  label={label}
                  move={move}
                  remove={remove}
                  disabled={disabled}
                />
              </div>
            );
          })}
          <Form.ErrorList errors={errors} />
          {!disabled && (
            <Button icon={<PlusOutlined />} onClick={() => add({ ...NEW_LINE })}>
              {t('protection.line.add')}
            </Button>
          )}
        </div>
      )}
    </Form.List>
  );
};
