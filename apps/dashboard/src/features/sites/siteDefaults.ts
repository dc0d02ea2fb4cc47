import type { SiteDefaults, UserConfigs } from '@rampart/contracts';

export type { SiteDefaults };
/** GET/PUT /v1/user-configs */
export type UserConfig = UserConfigs;

const TOGGLES = ['http2', 'websocket', 'gzip'] as const;
const LISTS = ['request_headers', 'response_headers', 'cache_rules'] as const;

/** A toggle in the defaults form: on, off, or `inherit` (the platform default). */
export type DefaultToggle = 'on' | 'off' | 'inherit';

export type SiteDefaultsValues = Omit<SiteDefaults, (typeof TOGGLES)[number]> &
  Record<(typeof TOGGLES)[number], DefaultToggle>;

const toggleOf = (value: boolean | undefined): DefaultToggle =>
  value === undefined ? 'inherit' : value ? 'on' : 'off';

/** The form's values from the stored defaults. */
export const siteDefaultsValues = (defaults: SiteDefaults): SiteDefaultsValues => ({
  ...defaults,
  http2: toggleOf(defaults.http2),
  websocket: toggleOf(defaults.websocket),
  gzip: toggleOf(defaults.gzip),
});

/** PUT /v1/user-configs: only the fields the user set; `inherit` toggles and empty lists are left out. */
export const userConfigBody = (values: SiteDefaultsValues): UserConfig => {
  const defaults: SiteDefaults = {};
  if (values.balance) defaults.balance = values.balance;
  if (values.origin_protocol) defaults.origin_protocol = values.origin_protocol;
  for (const toggle of TOGGLES) {
    if (values[toggle] !== 'inherit') defaults[toggle] = values[toggle] === 'on';
  }
  for (const list of LISTS) {
    const entries = values[list];
    if (entries && entries.length > 0) Object.assign(defaults, { [list]: entries });
  }
  return { site_defaults: defaults };
};
