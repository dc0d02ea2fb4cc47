/** The layout settings of spec §3, with the defaults of spec §9. */
export const SIDER_THEMES = ['dark', 'light'] as const;
export const HEADER_THEMES = ['light', 'dark', 'primary'] as const;

export type SiderTheme = (typeof SIDER_THEMES)[number];
export type HeaderTheme = (typeof HEADER_THEMES)[number];

export interface LayoutSettings {
  siderTheme: SiderTheme;
  headerTheme: HeaderTheme;
  headerStick: boolean;
  headerMenu: boolean;
  siderFix: boolean;
  headerFix: boolean;
  headerHide: boolean;
  menuAccordion: boolean;
  showSiderCollapse: boolean;
  tabs: boolean;
  showTabsIcon: boolean;
  tabsFix: boolean;
  showBreadcrumb: boolean;
  showBreadcrumbIcon: boolean;
  showReload: boolean;
  showI18n: boolean;
  showCollapseMenuTitle: boolean;
  menuCollapse: boolean;
  tabsReload: boolean;
  tabsOrder: boolean;
  showSearch: boolean;
  showNotice: boolean;
  showFullscreen: boolean;
  showMobileLogo: boolean;
  showLog: boolean;
  enableSetting: boolean;
  logoutConfirm: boolean;
}

export type Toggle = {
  [K in keyof LayoutSettings]: LayoutSettings[K] extends boolean ? K : never;
}[keyof LayoutSettings];

export const DEFAULT_LAYOUT_SETTINGS: LayoutSettings = {
  siderTheme: 'light',
  headerTheme: 'light',
  headerStick: true,
  headerMenu: false,
  siderFix: true,
  headerFix: true,
  headerHide: false,
  menuAccordion: true,
  showSiderCollapse: true,
  tabs: false,
  showTabsIcon: true,
  tabsFix: true,
  showBreadcrumb: true,
  showBreadcrumbIcon: false,
  showReload: true,
  showI18n: true,
  showCollapseMenuTitle: false,
  menuCollapse: false,
  tabsReload: false,
  tabsOrder: true,
  showSearch: true,
  showNotice: true,
  showFullscreen: true,
  showMobileLogo: true,
  showLog: true,
  enableSetting: true,
  logoutConfirm: true,
};

/** Toggles that only mean something while another one is on (spec §2). */
export const TOGGLE_NEEDS: Partial<Record<Toggle, Toggle>> = {
  headerHide: 'headerFix',
  headerStick: 'headerFix',
  showBreadcrumbIcon: 'showBreadcrumb',
  showTabsIcon: 'tabs',
  tabsFix: 'tabs',
};

/** The settings as the layout applies them: a toggle whose prerequisite is off is off. */
export const effectiveSettings = (settings: LayoutSettings): LayoutSettings => {
  const effective = { ...settings };
  for (const [toggle, needs] of Object.entries(TOGGLE_NEEDS) as [Toggle, Toggle][]) {
    if (!settings[needs]) effective[toggle] = false;
  }
  return effective;
};

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  values.some((candidate) => candidate === value);

/** Stored settings over the defaults, keeping only known keys with values of the right kind. */
export const parseSettings = (raw: unknown): LayoutSettings => {
  const settings = { ...DEFAULT_LAYOUT_SETTINGS };
  if (typeof raw !== 'object' || raw === null) return settings;
  const stored = raw as Record<string, unknown>;
  if (isOneOf(SIDER_THEMES, stored.siderTheme)) settings.siderTheme = stored.siderTheme;
  if (isOneOf(HEADER_THEMES, stored.headerTheme)) settings.headerTheme = stored.headerTheme;
  for (const key of Object.keys(DEFAULT_LAYOUT_SETTINGS) as (keyof LayoutSettings)[]) {
    const value = stored[key];
    if (typeof DEFAULT_LAYOUT_SETTINGS[key] === 'boolean' && typeof value === 'boolean') {
      (settings as Record<keyof LayoutSettings, unknown>)[key] = value;
    }
  }
  return settings;
};
