import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Divider from 'antd/es/divider';
import Drawer from 'antd/es/drawer';
import Radio from 'antd/es/radio';
import { useTranslation } from 'react-i18next';
import { HEADER_THEMES, SIDER_THEMES } from './layoutSettings.ts';
import { SettingSwitch, WatermarkSwitch } from './SettingSwitch.tsx';
import { useSettings } from './settingsStore.ts';

/** Spec §9: the layout settings drawer is 280 px wide. */
export const SETTINGS_DRAWER_WIDTH = 280;

const SECTIONS = [
  { title: 'layout.settings.layout', toggles: ['headerMenu', 'siderFix', 'headerFix', 'headerHide', 'headerStick'] },
  { title: 'layout.settings.menu', toggles: ['menuAccordion', 'showSiderCollapse', 'showCollapseMenuTitle'] },
  { title: 'layout.settings.header', toggles: ['showBreadcrumb', 'showBreadcrumbIcon', 'showReload', 'showI18n'] },
  { title: 'layout.settings.tabs', toggles: ['tabs', 'showTabsIcon', 'tabsFix'] },
] as const;

/** Spec §2 layout settings: the two theme choices and every toggle, each disabled while what it needs is off. */
export const SettingsDrawer = ({ onClose }: { onClose: () => void }) => {
  const { t } = useTranslation();
  const siderTheme = useSettings((state) => state.layout.siderTheme);
  const headerTheme = useSettings((state) => state.layout.headerTheme);
  const set = useSettings((state) => state.set);
  const reset = useSettings((state) => state.reset);
  return (
    <Drawer
      open
      onClose={onClose}
      size={SETTINGS_DRAWER_WIDTH}
      title={t('layout.settings.title')}
      data-testid="settings-drawer"
      footer={<Button onClick={reset}>{t('layout.settings.reset')}</Button>}
    >
      <Alert type="warning" showIcon title={t('layout.settings.warning')} data-testid="settings-warning" />
      <Divider>{t('layout.settings.theme')}</Divider>
      <div className="rp-setting-choice">
        <span id="rp-sider-theme">{t('layout.settings.siderTheme')}</span>
        <Radio.Group
          aria-labelledby="rp-sider-theme"
          optionType="button"
          value={siderTheme}
          onChange={(event) => set('siderTheme', event.target.value)}
          options={SIDER_THEMES.map((theme) => ({ value: theme, label: t(`layout.settings.themes.${theme}`) }))}
        />
      </div>
      <div className="rp-setting-choice">
        <span id="rp-header-theme">{t('layout.settings.headerTheme')}</span>
        <Radio.Group
          aria-labelledby="rp-header-theme"
          optionType="button"
          value={headerTheme}
          onChange={(event) => set('headerTheme', event.target.value)}
          options={HEADER_THEMES.map((theme) => ({ value: theme, label: t(`layout.settings.themes.${theme}`) }))}
        />
      </div>
      {SECTIONS.map((section) => (
        <section key={section.title}>
          <Divider>{t(section.title)}</Divider>
          {section.toggles.map((toggle) => (
            <SettingSwitch key={toggle} toggle={toggle} />
          ))}
        </section>
      ))}
      <Divider>{t('layout.settings.other')}</Divider>
      <WatermarkSwitch />
    </Drawer>
  );
};
