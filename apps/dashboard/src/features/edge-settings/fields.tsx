import Form from 'antd/es/form';
import InputNumber from 'antd/es/input-number';
import Switch from 'antd/es/switch';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { EDGE_SETTINGS_LOCALES } from './locales/bundle.ts';

/** A whole number within the server's range, with what it does under it. */
export const NumberItem = ({
  name,
  label,
  extra,
  min,
  max,
  unit,
}: {
  name: string;
  label: string;
  extra: string;
  min: number;
  max: number;
  unit?: string;
}) => {
  const { t } = useLocales(EDGE_SETTINGS_LOCALES);
  return (
    <Form.Item
      name={name}
      label={label}
      extra={extra}
      rules={[
        { required: true, message: t('edgeSettings.required') },
        { type: 'number', min, max, message: t('edgeSettings.range', { min, max }) },
      ]}
    >
      <InputNumber aria-label={label} min={min} max={max} precision={0} suffix={unit} style={{ width: 200 }} />
    </Form.Item>
  );
};

export const SwitchItem = ({ name, label, extra }: { name: string; label: string; extra: string }) => (
  <Form.Item name={name} label={label} extra={extra} valuePropName="checked">
    <Switch aria-label={label} />
  </Form.Item>
);

export const grid = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: '0 24px' };
