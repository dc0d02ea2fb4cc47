import type { FilterType } from '@rampart/contracts';
import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { checkFilterNumber, FILTER_FIELDS, FILTER_TYPES, type FilterNumberField } from '../model/filterPayload.ts';
import { checkRule } from '../shared/formRules.ts';

/** The filter's type and the settings that type reads; the others are hidden and not sent. */
export const FilterFields = () => {
  const { t } = useTranslation();
  const type = Form.useWatch<FilterType | undefined>('type');
  const number = (field: FilterNumberField) => (
    <Form.Item
      key={field}
      name={field}
      label={t(`protection.filter.${field}`)}
      extra={t(`protection.filter.${field}Help`)}
      rules={[checkRule(t, (value) => checkFilterNumber(field, value))]}
    >
      <InputNumber precision={0} style={{ width: 200 }} aria-label={t(`protection.filter.${field}`)} />
    </Form.Item>
  );
  return (
    <>
      <Form.Item name="type" label={t('protection.filter.type')} extra={type && t(`protection.filterType.${type}Help`)}>
        <Select<FilterType>
          aria-label={t('protection.filter.type')}
          options={FILTER_TYPES.map((value) => ({ value, label: t(`protection.filterType.${value}`) }))}
        />
      </Form.Item>
      {type !== undefined && FILTER_FIELDS[type].map(number)}
      {type === 'rate' && (
        <Form.Item name="per" label={t('protection.filter.per')}>
          <Select
            aria-label={t('protection.filter.per')}
            options={(['ip', 'ip_url'] as const).map((value) => ({ value, label: t(`protection.per.${value}`) }))}
          />
        </Form.Item>
      )}
    </>
  );
};
