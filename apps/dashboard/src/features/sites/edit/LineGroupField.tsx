import Form from 'antd/es/form';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useIsAdmin } from '../../../shared/session/useIsAdmin.ts';
import { useLineGroupChoices } from '../api.ts';

/** The "default line group" choice; saved as null. */
const DEFAULT_CHOICE = 0;

const LineGroupSelect = () => {
  const { t } = useTranslation();
  const lineGroups = useLineGroupChoices();
  return (
    <Form.Item
      name="line_group_id"
      label={t('sites.field.lineGroup')}
      extra={t('sites.field.lineGroupHelp')}
      getValueProps={(value: number | null | undefined) => ({ value: value === null ? DEFAULT_CHOICE : value })}
      normalize={(value: number) => (value === DEFAULT_CHOICE ? null : value)}
    >
      <Select<number>
        aria-label={t('sites.field.lineGroup')}
        data-testid="site-line-group"
        placeholder={t('sites.field.lineGroupKeep')}
        loading={lineGroups.isPending}
        options={[
          { value: DEFAULT_CHOICE, label: t('sites.field.lineGroupDefault') },
          ...(lineGroups.data ?? []).map((group) => ({
            value: group.id,
            label: group.fqdn || group.host ? `${group.name} (${group.fqdn || group.host})` : group.name,
          })),
        ]}
      />
    </Form.Item>
  );
};

/** The site's line group (PUT /v1/sites/{id} line_group_id): administrators only, absent for everyone else. */
export const LineGroupField = () => (useIsAdmin() ? <LineGroupSelect /> : null);
