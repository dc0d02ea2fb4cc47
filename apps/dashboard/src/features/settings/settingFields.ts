import type { SystemSettingGroup } from '@rampart/contracts';

/** How a setting is edited on /sys/setting; ranges and lengths follow its schema in contracts. */
export type SettingField =
  | { name: string; kind: 'text'; max: number; required?: boolean }
  | { name: string; kind: 'url' }
  | { name: string; kind: 'secret' }
  | { name: string; kind: 'number'; min: number; max: number }
  | { name: string; kind: 'switch'; warnWhenOn?: true }
  | { name: string; kind: 'select'; options: readonly string[] }
  | { name: string; kind: 'multi'; options: readonly string[] };

const REQUIREMENT = ['required', 'optional', 'hidden'] as const;
const LANGUAGES = ['zh-CN', 'en-US'] as const;

export const SETTING_GROUPS: readonly SystemSettingGroup[] = [
  'site',
  'register',
  'captcha',
  'smtp',
  'sms',
  'session',
  'password',
  'locale',
  'retention',
  'business',
  'dns',
  'domains',
];

export const SETTING_FIELDS: Record<SystemSettingGroup, readonly SettingField[]> = {
  site: [
    { name: 'site_name', kind: 'text', max: 64, required: true },
    { name: 'logo_url', kind: 'url' },
    { name: 'footer_link', kind: 'url' },
    { name: 'footer_copyright', kind: 'text', max: 200 },
  ],
  register: [
    { name: 'register_open', kind: 'switch' },
    { name: 'register_email', kind: 'select', options: REQUIREMENT },
    { name: 'register_phone', kind: 'select', options: REQUIREMENT },
    { name: 'register_qq', kind: 'select', options: REQUIREMENT },
    { name: 'agreement_url', kind: 'url' },
  ],
  captcha: [
    { name: 'login_failure_limit', kind: 'number', min: 1, max: 100 },
    { name: 'login_failure_window_seconds', kind: 'number', min: 60, max: 86_400 },
    { name: 'login_ip_throttle_limit', kind: 'number', min: 1, max: 10_000 },
    { name: 'verify_code_ttl_seconds', kind: 'number', min: 60, max: 3600 },
    { name: 'verify_code_resend_seconds', kind: 'number', min: 10, max: 3600 },
    { name: 'verify_code_max_attempts', kind: 'number', min: 1, max: 20 },
    { name: 'verify_codes_per_hour', kind: 'number', min: 1, max: 100 },
    { name: 'verify_codes_per_ip_hour', kind: 'number', min: 1, max: 1000 },
  ],
  smtp: [
    { name: 'smtp_host', kind: 'text', max: 253 },
    { name: 'smtp_port', kind: 'number', min: 1, max: 65_535 },
    { name: 'smtp_secure', kind: 'switch' },
    { name: 'smtp_username', kind: 'text', max: 254 },
    { name: 'smtp_password', kind: 'secret' },
    { name: 'smtp_from', kind: 'text', max: 254 },
  ],
  sms: [
    { name: 'sms_provider', kind: 'select', options: ['none', 'aliyun', 'tencent'] },
    { name: 'sms_endpoint', kind: 'url' },
    { name: 'sms_access_key_id', kind: 'text', max: 128 },
    { name: 'sms_secret', kind: 'secret' },
    { name: 'sms_sign_name', kind: 'text', max: 64 },
    { name: 'sms_template_code', kind: 'text', max: 64 },
    { name: 'sms_app_id', kind: 'text', max: 64 },
  ],
  session: [{ name: 'session_ttl_hours', kind: 'number', min: 1, max: 720 }],
  password: [
    { name: 'password_min_length', kind: 'number', min: 6, max: 64 },
    { name: 'password_require_letter', kind: 'switch' },
    { name: 'password_require_digit', kind: 'switch' },
    { name: 'password_require_symbol', kind: 'switch' },
  ],
  locale: [
    { name: 'default_language', kind: 'select', options: LANGUAGES },
    { name: 'languages', kind: 'multi', options: LANGUAGES },
  ],
  retention: [
    { name: 'access_log_days', kind: 'number', min: 1, max: 31 },
    { name: 'minute_rollup_days', kind: 'number', min: 1, max: 31 },
    { name: 'hour_rollup_days', kind: 'number', min: 7, max: 400 },
    { name: 'usage_sample_days', kind: 'number', min: 62, max: 400 },
    { name: 'log_retention_days', kind: 'number', min: 180, max: 3650 },
  ],
  business: [{ name: 'require_package', kind: 'switch' }],
  dns: [{ name: 'dnsapi_allow_private', kind: 'switch', warnWhenOn: true }],
  domains: [{ name: 'domain_proof', kind: 'switch' }],
};

const HTTP_URL = /^https?:\/\/\S+$/;

/** Whether a URL field's text is acceptable: empty, or an http(s) address. */
export const isHttpUrlOrEmpty = (text: string) => text === '' || HTTP_URL.test(text);

/** The settings a form sends: switches as booleans, empty text as '', numbers as numbers. */
export function settingValues(group: SystemSettingGroup, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    SETTING_FIELDS[group].map((field) => {
      const value = values[field.name];
      if (field.kind === 'switch') return [field.name, value === true];
      if (field.kind === 'number') return [field.name, Number(value)];
      if (field.kind === 'multi') return [field.name, Array.isArray(value) ? value : []];
      return [field.name, typeof value === 'string' ? value.trim() : ''];
    }),
  );
}
