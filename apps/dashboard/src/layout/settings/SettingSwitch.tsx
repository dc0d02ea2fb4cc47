import Switch from 'antd/es/switch';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { TOGGLE_NEEDS, type Toggle } from './layoutSettings.ts';
import { useSettings } from './settingsStore.ts';

interface SwitchRowProps {
  label: string;
  checked: boolean;
  disabled?: boolean;
  hint?: string;
  onChange: (checked: boolean) => void;
}

const SwitchRow = ({ label, checked, disabled, hint, onChange }: SwitchRowProps) => {
  const id = useId();
  return (
    <div className="rp-setting-row" title={hint}>
      <label htmlFor={id} className={disabled ? 'rp-setting-disabled' : undefined}>
        {label}
      </label>
      <Switch id={id} size="small" checked={checked} disabled={disabled} onChange={onChange} />
    </div>
  );
};

/** One layout toggle; disabled while the toggle it needs is off. */
export const SettingSwitch = ({ toggle }: { toggle: Toggle }) => {
  const { t } = useTranslation();
  const checked = useSettings((state) => state.layout[toggle]);
  const needs = TOGGLE_NEEDS[toggle];
  const blocked = useSettings((state) => (needs ? !state.layout[needs] : false));
  const set = useSettings((state) => state.set);
  return (
    <SwitchRow
      label={t(`layout.settings.toggles.${toggle}`)}
      checked={checked}
      disabled={blocked}
      hint={
        needs && blocked ? t('layout.settings.needs', { setting: t(`layout.settings.toggles.${needs}`) }) : undefined
      }
      onChange={(value) => set(toggle, value)}
    />
  );
};

export const WatermarkSwitch = () => {
  const { t } = useTranslation();
  const checked = useSettings((state) => state.watermark);
  const setWatermark = useSettings((state) => state.setWatermark);
  return <SwitchRow label={t('layout.settings.watermark')} checked={checked} onChange={setWatermark} />;
};
