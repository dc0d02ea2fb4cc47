import {
  type FieldRequirement,
  type Locale,
  passwordPolicyBreach,
  SECRET_SETTINGS,
  type SmsProvider,
  SYSTEM_SETTING_GROUPS,
} from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { invalidParam } from '../../errors.ts';
import { openSetting } from './sealed-settings.ts';
import { readSystemConfigs, writeSystemConfig } from './settings.repository.ts';

/** Every system setting with its default; stored values of the wrong type fall back to the default. */
export const SETTING_DEFAULTS = {
  site_name: 'Rampart',
  logo_url: '',
  footer_link: '',
  footer_copyright: '© Rampart',
  register_open: true,
  register_email: 'required' as FieldRequirement,
  register_phone: 'optional' as FieldRequirement,
  register_qq: 'optional' as FieldRequirement,
  agreement_url: '',
  /** Failed logins per account or IP within the window before a captcha is required. */
  login_failure_limit: 5,
  login_failure_window_seconds: 900,
  /** Failed logins per IP within the window before that IP is throttled until the window passes. */
  login_ip_throttle_limit: 50,
  verify_code_ttl_seconds: 600,
  verify_code_resend_seconds: 60,
  verify_code_max_attempts: 5,
  /** Codes one email address or phone number receives an hour. */
  verify_codes_per_hour: 10,
  /** Codes one client address may ask for an hour, whatever the targets. */
  verify_codes_per_ip_hour: 20,
  /** Mail server; an empty host: the one the master was started with (RAMPART_SMTP_URL). */
  smtp_host: '',
  smtp_port: 587,
  smtp_secure: false,
  smtp_username: '',
  smtp_password: '',
  smtp_from: '',
  /** SMS provider of phone codes and messages; none: codes wait in the outbox for the operator. */
  sms_provider: 'none' as SmsProvider,
  sms_endpoint: '',
  sms_access_key_id: '',
  sms_secret: '',
  sms_sign_name: '',
  sms_template_code: '',
  /** Tencent Cloud's SmsSdkAppId; aliyun needs none. */
  sms_app_id: '',
  /** How long a sign-in lasts. */
  session_ttl_hours: 24,
  password_min_length: 6,
  password_require_letter: false,
  password_require_digit: false,
  password_require_symbol: false,
  default_language: 'zh-CN' as Locale,
  languages: ['zh-CN', 'en-US'] as Locale[],
  /** DNS server used to check customers' CNAME records, as ip or ip:port; empty: the system's resolver. */
  dns_resolver: '',
  /**
   * A site's domain reaches the edges only once its owner proved it. Off for an installation that
   * predates it (its live sites must not disappear); a new one is switched on with its first admin.
   */
  domain_proof: false,
  /** Let users point DNS APIs at loopback or private addresses (self-hosted set-ups and tests only). */
  dnsapi_allow_private: false,
  /** Operator translations by language, merged by the dashboard over its own (POST /api/system/i18n/list). */
  i18n_overrides: {} as Record<string, unknown>,
  /** The ACME server certificates are issued by (its directory URL); Let's Encrypt by default. */
  acme_directory_url: 'https://acme-v02.api.letsencrypt.org/directory',
  /** Contact address of the ACME account (expiry notices); empty: none. */
  acme_email: '',
  /** How long an HTTP-01 issuance waits for every online edge to apply its challenge. */
  acme_edge_wait_seconds: 60,
  /** How long a DNS-01 issuance waits for its TXT record to show in DNS. */
  acme_dns_wait_seconds: 120,
  /** ACME certificates are re-issued this many days before they expire. */
  acme_renew_days: 30,
  /** How often the renewal sweep looks for certificates to renew. */
  acme_renew_interval_seconds: 3600,
  /** API endpoints of the hosted DNS providers (changed only for a proxy or a test server). */
  cloudflare_api_url: 'https://api.cloudflare.com/client/v4',
  dnspod_api_url: 'https://dnspod.tencentcloudapi.com',
  alidns_api_url: 'https://alidns.aliyuncs.com',
  /** Days the operation and login logs are kept; never less than 180 (log-retention.ts). */
  log_retention_days: 180,
  /** Days the traffic data is kept, tier by tier (traffic-retention.ts). */
  access_log_days: 31,
  minute_rollup_days: 7,
  hour_rollup_days: 90,
  usage_sample_days: 100,
  /** Customers (type 2, not `package_exempt`) need an active package to create a site or a stream. */
  require_package: true,
  /** Agents present this to register; empty until first read, when a random one is made. */
  cluster_install_token: '',
};

export type Settings = typeof SETTING_DEFAULTS;
export type SettingName = keyof Settings;

/** Settings saved by /sys/setting, one config entry per tab: the tab of each setting. */
const GROUP_OF = new Map<string, string>(
  Object.entries(SYSTEM_SETTING_GROUPS).flatMap(([group, schema]) =>
    Object.keys(schema.properties).map((name) => [name, group] as const),
  ),
);

const sameType = (value: unknown, fallback: unknown) =>
  Array.isArray(fallback) ? Array.isArray(value) : value !== null && typeof value === typeof fallback;

/** Defaults, overlaid with single stored settings and then with the tabs of /sys/setting. */
export async function loadSettings(db: Kysely<Database>): Promise<Settings> {
  const settings = overlaid(await readSystemConfigs(db));
  for (const name of SECRET_SETTINGS) {
    const stored = settings[name as SettingName];
    if (typeof stored === 'string') Object.assign(settings, { [name]: openSetting(db, stored) });
  }
  return settings;
}

/**
 * One setting that is not a secret, as it stands: read through any handle, a transaction included
 * (secrets are opened only through the store's own handle).
 */
export async function readSetting<K extends SettingName>(db: Kysely<Database>, name: K): Promise<Settings[K]> {
  if (SECRET_SETTINGS.includes(name)) throw new Error(`${name} is a secret: read it with loadSettings`);
  return overlaid(await readSystemConfigs(db))[name];
}

function overlaid(stored: Map<string, unknown>): Settings {
  const settings = { ...SETTING_DEFAULTS };
  for (const name of Object.keys(SETTING_DEFAULTS) as SettingName[]) {
    const tab = settingTab(name);
    Object.assign(settings, { [name]: storedSetting(name, stored.get(name), tab && stored.get(tab)) });
  }
  return settings;
}

/** The /sys/setting tab whose stored entry holds `name`, if one does. */
export const settingTab = (name: SettingName): string | undefined => GROUP_OF.get(name);

/**
 * One setting from its stored values (parsed JSON; undefined when not stored): its tab's field over
 * its own entry over the default, each only when it has the default's type.
 */
export function storedSetting<K extends SettingName>(name: K, own: unknown, tab: unknown): Settings[K] {
  const fallback = SETTING_DEFAULTS[name];
  if (tab !== null && typeof tab === 'object' && Object.hasOwn(tab, name)) {
    const field = (tab as Record<string, unknown>)[name];
    if (sameType(field, fallback)) return field as Settings[K];
  }
  return sameType(own, fallback) ? (own as Settings[K]) : fallback;
}

/** The settings of one /sys/setting tab, as they stand. */
export function groupValue(settings: Settings, group: string): Record<string, unknown> {
  return Object.fromEntries(
    [...GROUP_OF].filter(([, of]) => of === group).map(([name]) => [name, settings[name as SettingName]]),
  );
}

/** Saves one setting; one that belongs to a /sys/setting tab is saved within that tab's entry. */
export async function saveSetting<K extends SettingName>(db: Kysely<Database>, name: K, value: Settings[K]) {
  const group = GROUP_OF.get(name);
  if (!group) {
    await writeSystemConfig(db, name, value, Date.now());
    return;
  }
  const current = groupValue(await loadSettings(db), group);
  await writeSystemConfig(db, group, { ...current, [name]: value }, Date.now());
}

/** Refuses a new password the policy of /sys/setting does not allow, naming the field and the rule. */
export function checkPasswordPolicy(settings: Settings, password: string, field = 'password') {
  const breach = passwordPolicyBreach(password, settings);
  if (breach) throw invalidParam(field, breach);
}

/** How long a new sign-in lasts. */
export const sessionTtlMs = (settings: Settings) => settings.session_ttl_hours * 60 * 60 * 1000;

/**
 * The mail server email goes through: the one saved in /sys/setting, or, while its host is empty,
 * the one the master was started with (`fallback`, from RAMPART_SMTP_URL / RAMPART_SMTP_FROM).
 */
export async function smtpTransport(
  db: Kysely<Database>,
  fallback: { url?: string | undefined; from: string },
): Promise<{ transport: string | SmtpServer | undefined; from: string }> {
  return smtpTransportOf(await loadSettings(db), fallback);
}

/** `smtpTransport` of settings already loaded (their secrets opened). */
export function smtpTransportOf(
  settings: Settings,
  fallback: { url?: string | undefined; from: string },
): { transport: string | SmtpServer | undefined; from: string } {
  const from = settings.smtp_from || fallback.from;
  if (!settings.smtp_host) return { transport: fallback.url, from };
  const auth = settings.smtp_username ? { user: settings.smtp_username, pass: settings.smtp_password } : undefined;
  return {
    transport: {
      host: settings.smtp_host,
      port: settings.smtp_port,
      secure: settings.smtp_secure,
      ...(auth && { auth }),
    },
    from,
  };
}

export interface SmtpServer {
  host: string;
  port: number;
  secure: boolean;
  auth?: { user: string; pass: string };
}
