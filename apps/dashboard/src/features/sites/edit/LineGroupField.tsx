import { PERMISSIONS } from '@rampart/contracts';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../../shared/access/useAccess.ts';
import { useLineGroupChoices } from '../api.ts';
import { useReachesEveryUser } from '../useReachesEveryUser.ts';

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

/**
 * The site's line group (PUT /v1/sites/{id} line_group_id): for an admin who reaches the site and holds
 * the line groups (admin:node), as the master requires; absent for everyone else.
 */
export const LineGroupField = () => {
  const reachesSite = useReachesEveryUser();
  const holdsLineGroups = useAccess([PERMISSIONS.adminNode]);
  return reachesSite && holdsLineGroups ? <LineGroupSelect /> : null;
};
