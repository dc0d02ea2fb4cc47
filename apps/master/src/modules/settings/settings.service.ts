import type { FieldRequirement } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
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
  /** DNS server used to check customers' CNAME records, as ip or ip:port; empty: the system's resolver. */
  dns_resolver: '',
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
  /** Days the operation and login logs are kept; never less than 180 (log-retention.ts). */
  log_retention_days: 180,
  /** Agents present this to register; empty until first read, when a random one is made. */
  cluster_install_token: '',
};

export type Settings = typeof SETTING_DEFAULTS;
export type SettingName = keyof Settings;

export async function loadSettings(db: Kysely<Database>): Promise<Settings> {
  const stored = await readSystemConfigs(db);
  const settings = { ...SETTING_DEFAULTS };
  for (const name of Object.keys(SETTING_DEFAULTS) as SettingName[]) {
    const value = stored.get(name);
    if (value !== undefined && typeof value === typeof SETTING_DEFAULTS[name]) {
      Object.assign(settings, { [name]: value });
    }
  }
  return settings;
}

export async function saveSetting<K extends SettingName>(db: Kysely<Database>, name: K, value: Settings[K]) {
  await writeSystemConfig(db, name, value, Date.now());
}
