import type { RuleAction } from '@rampart/contracts';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllObjects } from '../api.ts';
import type { AclRow } from '../model/acl.ts';
import { type GroupDraft, RULE_ACTIONS } from '../model/groupPayload.ts';
import type { MatchDraft } from '../model/matchPayload.ts';
import { ObjectSelect } from '../shared/ObjectSelect.tsx';
import { usableOwners } from '../shared/owners.ts';
import { aclPreviewRule, groupPreviewRule, matchPreviewRule } from './previewRule.ts';
import { RulePreviewPanel } from './RulePreviewPanel.tsx';

/** The site's ACL as the protection section holds it (field `acl`). */
export const AclPreview = ({ siteId }: { siteId: number }) => (
  <RulePreviewPanel
    siteId={siteId}
    fields={['acl']}
    toRule={(form) => aclPreviewRule((form.getFieldValue('acl') as AclRow[] | undefined) ?? [])}
  />
);

/** A match's conditions; a CC match is previewed with one of the user's filters and a line's action. */
export const MatchPreview = ({ owner }: { owner: number }) => {
  const { t } = useTranslation();
  const filters = useAllObjects('filters');
  const [filterId, setFilterId] = useState<number | null>(null);
  const [action, setAction] = useState<RuleAction>('block');
  const filter = filters.data?.find((row) => row.id === filterId);
  return (
    <RulePreviewPanel
      fields={['conditions']}
      settings={`${filterId}|${action}`}
      toRule={(form) => {
        if (!filter) return { control: 'filter', text: t('protection.preview.pickFilter') };
        const draft: MatchDraft = {
          name: '',
          conditions: form.getFieldValue('conditions') as MatchDraft['conditions'],
        };
        return matchPreviewRule(draft, filter, action);
      }}
    >
      <ObjectSelect
        kind="filters"
        owners={usableOwners(owner)}
        value={filterId}
        onChange={setFilterId}
        style={{ width: 200 }}
        placeholder={t('protection.preview.control.filter')}
        aria-label={t('protection.preview.control.filter')}
      />
      <Select<RuleAction>
        aria-label={t('protection.preview.control.action')}
        value={action}
        onChange={setAction}
        style={{ width: 140 }}
        options={RULE_ACTIONS.map((value) => ({ value, label: t(`protection.action.${value}`) }))}
      />
    </RulePreviewPanel>
  );
};

/** A rule group's lines, in order. */
export const GroupPreview = () => (
  <RulePreviewPanel
    fields={['rules']}
    toRule={(form) =>
      groupPreviewRule({ name: '', rules: (form.getFieldValue('rules') as GroupDraft['rules'] | undefined) ?? [] })
    }
  />
);
