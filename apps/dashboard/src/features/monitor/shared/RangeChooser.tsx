import DatePicker from 'antd/es/date-picker';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { PRESET_NAMES, type RangeChoice, type RangePreset } from '../model/ranges.ts';

/** A preset range ending now, or a custom one picked on a calendar (in the user's time zone). */
export const RangeChooser = ({ range, onChange }: { range: RangeChoice; onChange: (range: RangeChoice) => void }) => {
  const { t } = useTranslation();
  return (
    <>
      <Select<RangePreset | 'custom'>
        aria-label={t('monitor.range.label')}
        style={{ width: 170 }}
        value={range.preset}
        onChange={(preset) => {
          if (preset !== 'custom') onChange({ preset });
          else onChange({ preset, fromMs: Date.now() - 3_600_000, toMs: Date.now() });
        }}
        options={[...PRESET_NAMES, 'custom' as const].map((value) => ({ value, label: t(`monitor.range.${value}`) }))}
      />
      {range.preset === 'custom' && (
        <DatePicker.RangePicker
          showTime
          allowClear={false}
          aria-label={t('monitor.range.customPicker')}
          onChange={(picked) => {
            const [from, to] = picked ?? [];
            if (from && to) onChange({ preset: 'custom', fromMs: from.valueOf(), toMs: to.valueOf() });
          }}
        />
      )}
    </>
  );
};
