import type { Condition, FilterType, RuleLine } from '@rampart/contracts';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import type { TFunction } from 'i18next';
import type { FilterRow, MatchRow, RuleGroupRow } from '../api.ts';
import { conditionSummary, filterSummary } from '../model/summary.ts';

export const matchColumns = (t: TFunction): ColumnsType<MatchRow> => [
  {
    key: 'conditions',
    dataIndex: 'conditions',
    title: t('protection.matches.conditions'),
    render: (conditions: Condition[]) => (
      <div style={{ display: 'grid', gap: 2 }}>
        {conditions.map((condition, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id and are shown as stored, never reordered here.
          <span key={index}>{conditionSummary(t, condition)}</span>
        ))}
      </div>
    ),
  },
];

export const filterColumns = (t: TFunction): ColumnsType<FilterRow> => [
  {
    key: 'type',
    dataIndex: 'type',
    title: t('protection.filter.type'),
    width: 140,
    render: (type: FilterType) => <Tag>{t(`protection.filterType.${type}`)}</Tag>,
  },
  {
    key: 'settings',
    title: t('protection.filters.settings'),
    render: (_value, filter) => filterSummary(t, filter),
  },
];

export const groupColumns = (t: TFunction): ColumnsType<RuleGroupRow> => [
  {
    key: 'rules',
    dataIndex: 'rules',
    title: t('protection.groups.lines'),
    width: 120,
    render: (rules: RuleLine[]) => rules.length,
  },
  {
    key: 'default',
    dataIndex: 'is_default',
    title: t('protection.groups.default'),
    width: 120,
    render: (isDefault: boolean) => (isDefault ? <Tag color="blue">{t('protection.groups.default')}</Tag> : null),
  },
];
