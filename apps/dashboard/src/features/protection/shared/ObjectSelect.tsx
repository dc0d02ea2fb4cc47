import Select from 'antd/es/select';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { isSystemRow, type ObjectKind, useAllObjects } from '../api.ts';

interface ObjectSelectProps {
  kind: ObjectKind;
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** Offers "none" (null) first. */
  allowNone?: boolean;
  /** Lists only rows of these owners (0: system): what the owner of the group or site may use. */
  owners?: readonly number[];
  allowClear?: boolean;
  disabled?: boolean;
  style?: CSSProperties;
  placeholder?: string;
  'aria-label': string;
}

/** Picks one of the user's or the system's matches, filters or rule groups by name. */
export const ObjectSelect = ({
  kind,
  value,
  onChange,
  allowNone = false,
  owners,
  allowClear = false,
  disabled,
  style,
  placeholder,
  'aria-label': ariaLabel,
}: ObjectSelectProps) => {
  const { t } = useTranslation();
  const rows = useAllObjects(kind);
  const options = (rows.data ?? [])
    .filter((row) => owners === undefined || owners.includes(row.user_id))
    .map((row) => ({
      value: row.id,
      label: isSystemRow(row) ? `${row.name} (${t('protection.systemTag')})` : row.name,
    }));
  return (
    <Select<number>
      aria-label={ariaLabel}
      showSearch={{ optionFilterProp: 'label' }}
      loading={rows.isPending}
      disabled={disabled}
      value={value ?? (allowNone ? 0 : undefined)}
      allowClear={allowClear}
      style={style}
      placeholder={placeholder ?? t('protection.pick')}
      onChange={(next: number | undefined) => onChange?.(next || null)}
      options={allowNone ? [{ value: 0, label: t('protection.none') }, ...options] : options}
    />
  );
};
