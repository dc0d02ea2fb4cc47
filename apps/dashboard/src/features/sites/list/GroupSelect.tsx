import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useSiteGroups } from '../api.ts';

interface GroupPickerProps {
  value?: number | null;
  onChange?: (value: number | null) => void;
  id?: string;
  groups: readonly { id: number; name: string }[];
  loading?: boolean;
}

/** A group picker with a "no group" choice; a form control for sites and streams. */
export const GroupPicker = ({ value, onChange, id, groups, loading }: GroupPickerProps) => {
  const { t } = useTranslation();
  return (
    <Select<number>
      id={id}
      value={value ?? 0}
      onChange={(next) => onChange?.(next === 0 ? null : next)}
      loading={loading}
      options={[
        { value: 0, label: t('sites.group.none') },
        ...groups.map((group) => ({ value: group.id, label: group.name })),
      ]}
    />
  );
};

export const GroupSelect = (props: Omit<GroupPickerProps, 'groups' | 'loading'>) => {
  const groups = useSiteGroups();
  return <GroupPicker {...props} groups={groups.data ?? []} loading={groups.isPending} />;
};
