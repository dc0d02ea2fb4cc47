// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { readCookie } from '../../shared/session/cookies.ts';
import { DEFAULT_LAYOUT_SETTINGS, effectiveSettings, parseSettings } from './layoutSettings.ts';
import { SETTINGS_KEY } from './settingsStorage.ts';
import { createSettingsStore } from './settingsStore.ts';

const clearStorage = () => {
  localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: test set-up
  document.cookie = `${SETTINGS_KEY}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
};

describe('layout settings', () => {
  beforeEach(clearStorage);

  it('start from the defaults of spec §9', () => {
    const { layout, watermark } = createSettingsStore().getState();
    expect(layout).toMatchObject({
      siderTheme: 'light',
      headerTheme: 'light',
      headerStick: true,
      siderFix: true,
      headerFix: true,
      tabs: false,
      tabsFix: true,
      tabsOrder: true,
      showBreadcrumb: true,
      showReload: true,
      menuAccordion: true,
    });
    expect(Object.keys(layout).sort()).toEqual(
      [
        'siderTheme',
        'headerTheme',
        'headerStick',
        'headerMenu',
        'siderFix',
        'headerFix',
        'headerHide',
        'menuAccordion',
        'showSiderCollapse',
        'tabs',
        'showTabsIcon',
        'tabsFix',
        'showBreadcrumb',
        'showBreadcrumbIcon',
        'showReload',
        'showI18n',
        'showCollapseMenuTitle',
        'menuCollapse',
        'tabsReload',
        'tabsOrder',
        'showSearch',
        'showNotice',
        'showFullscreen',
        'showMobileLogo',
        'showLog',
        'enableSetting',
        'logoutConfirm',
      ].sort(),
    );
    expect(watermark).toBe(false);
  });

  it('are saved under the app id in a cookie and local storage and restored by the next load', () => {
    const first = createSettingsStore();
    first.getState().set('siderTheme', 'dark');
    first.getState().set('tabs', true);
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as { layout: { siderTheme: string } };
    expect(saved.layout.siderTheme).toBe('dark');
    expect(JSON.parse(readCookie(SETTINGS_KEY) ?? '{}')).toEqual(saved);
    const next = createSettingsStore().getState().layout;
    expect(next).toMatchObject({ siderTheme: 'dark', tabs: true });
  });

  it('fall back to local storage when the one-day cookie has expired', () => {
    createSettingsStore().getState().set('headerTheme', 'primary');
    // biome-ignore lint/suspicious/noDocumentCookie: test set-up
    document.cookie = `${SETTINGS_KEY}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
    expect(createSettingsStore().getState().layout.headerTheme).toBe('primary');
  });

  it('ignore unknown keys and values of the wrong kind', () => {
    expect(parseSettings({ siderTheme: 'purple', tabs: 'yes', headerMenu: true, extra: 1 })).toEqual({
      ...DEFAULT_LAYOUT_SETTINGS,
      headerMenu: true,
    });
  });

  it('turn off what needs a toggle that is off', () => {
    const effective = effectiveSettings({
      ...DEFAULT_LAYOUT_SETTINGS,
      headerFix: false,
      headerHide: true,
      showBreadcrumb: false,
      showBreadcrumbIcon: true,
    });
    expect(effective).toMatchObject({ headerHide: false, headerStick: false, showBreadcrumbIcon: false });
    expect(effectiveSettings(DEFAULT_LAYOUT_SETTINGS)).toMatchObject({ showTabsIcon: false, tabsFix: false });
  });

  it('reset to the defaults', () => {
    const store = createSettingsStore();
    store.getState().set('headerMenu', true);
    store.getState().setWatermark(true);
    store.getState().reset();
    expect(store.getState()).toMatchObject({ layout: DEFAULT_LAYOUT_SETTINGS, watermark: false });
  });
});
