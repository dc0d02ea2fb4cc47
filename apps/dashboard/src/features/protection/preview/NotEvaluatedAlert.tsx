import type { NotEvaluated, PreviewRule } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useAllObjects } from '../api.ts';
import { type ConditionKind, type RulePart, rulePart } from './previewRule.ts';

const PART_LABELS: Record<RulePart['kind'], string> = {
  entry: 'protection.acl.label',
  condition: 'protection.condition.label',
  line: 'protection.line.label',
};

/** "Entry 3 (header X-Token)", "Line 1, condition 2". */
const partText = (t: TFunction, part: RulePart): string => {
  const label = t(PART_LABELS[part.kind], { index: part.index });
  const where =
    part.condition === undefined
      ? label
      : t('protection.preview.notEvaluated.lineCondition', { line: label, index: part.condition });
  return part.cause === 'header'
    ? t('protection.preview.notEvaluated.header', { part: where, header: part.header })
    : where;
};

const itemText = (t: TFunction, part: RulePart | undefined, item: NotEvaluated): string => {
  // Causes the dashboard can tell from the condition are said in the user's language; others as the master words them.
  const reason =
    part?.cause === 'header'
      ? t('protection.preview.notEvaluated.headers')
      : part?.cause === 'regex'
        ? t('protection.preview.notEvaluated.regex')
        : item.reason;
  return t('protection.preview.notEvaluated.item', { part: part ? partText(t, part) : item.path, reason });
};

interface NotEvaluatedProps {
  items: readonly NotEvaluated[];
  rule: PreviewRule;
  matchConditions?: (matchId: number) => readonly ConditionKind[] | undefined;
}

const NotEvaluatedList = ({ items, rule, matchConditions }: NotEvaluatedProps) => {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="rule-preview-not-evaluated"
      title={t('protection.preview.notEvaluated.title')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 20 }}>
          {items.map((item) => (
            <li key={item.path}>{itemText(t, rulePart(rule, item, matchConditions), item)}</li>
          ))}
        </ul>
      }
    />
  );
};

/** A group's lines name matches by id: their conditions come from the list the line pickers loaded. */
const GroupNotEvaluated = (props: NotEvaluatedProps) => {
  const matches = useAllObjects('matches');
  const conditionsOf = (matchId: number) => matches.data?.find((match) => match.id === matchId)?.conditions;
  return <NotEvaluatedList {...props} matchConditions={conditionsOf} />;
};

/** The conditions the access log cannot answer, each named by its entry, condition or line, and why. */
export const NotEvaluatedAlert = ({ items, rule }: NotEvaluatedProps) => {
  if (items.length === 0) return null;
  return rule.type === 'rule_group' ? (
    <GroupNotEvaluated items={items} rule={rule} />
  ) : (
    <NotEvaluatedList items={items} rule={rule} />
  );
};
