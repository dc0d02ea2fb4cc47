import Button from 'antd/es/button';
import Card from 'antd/es/card';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFeedback } from '../../../shared/feedback/FeedbackProvider.tsx';
import { useSubmitting } from '../../../shared/form/useSubmitting.ts';
import { isSystemRow, useAllObjects, useSetDefaultGroup } from '../api.ts';
import { ObjectSelect } from '../shared/ObjectSelect.tsx';

/** Which system rule group sites without a rule group of their own run (at most one). */
export const DefaultGroupCard = () => {
  const { t } = useTranslation();
  const feedback = useFeedback();
  const groups = useAllObjects('groups');
  const setDefault = useSetDefaultGroup();
  const current = groups.data?.find((group) => isSystemRow(group) && group.is_default);
  const [picked, setPicked] = useState<number | null>();
  const [saving, submitting] = useSubmitting();
  const chosen = picked === undefined ? (current?.id ?? null) : picked;

  const save = async () => {
    await submitting(async () => {
      // No group: sites without a rule group of their own run none.
      if (chosen === null && current) await setDefault(current.id, false);
      else if (chosen !== null) await setDefault(chosen, true);
      setPicked(undefined);
      feedback.success(t('protection.saved'));
    });
  };

  return (
    <Card title={t('protection.wafConfig.defaultGroup')}>
      <p style={{ color: 'rgba(0,0,0,0.45)' }}>
        {t('protection.wafConfig.defaultGroupHelp')}{' '}
        <Link to="/site/rule">{t('protection.wafConfig.manageGroups')}</Link>
      </p>
      <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
        <ObjectSelect
          kind="groups"
          owners={[0]}
          allowNone
          aria-label={t('protection.wafConfig.defaultGroup')}
          style={{ width: 280 }}
          value={chosen}
          onChange={setPicked}
        />
        <Button
          type="primary"
          loading={saving}
          disabled={chosen === (current?.id ?? null)}
          onClick={() => void save()}
          data-testid="default-group-save"
        >
          {t('protection.save')}
        </Button>
      </div>
    </Card>
  );
};
