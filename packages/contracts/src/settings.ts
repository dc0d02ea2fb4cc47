import { type Static, type TSchema, Type } from 'typebox';
import { FieldRequirement } from './auth.ts';

/**
 * The system settings of /sys/setting, one config entry per tab (`global-0-system-{group}`), each
 * checked by its own schema. Field names are the setting names the master reads.
 */
const text = (maxLength: number, description: string) => Type.String({ maxLength, description });
const httpUrlOrEmpty = (description: string) =>
  Type.String({
    maxLength: 512,
    pattern: '^(https?://[^\\s]+)?$',
    description: `${description}: empty or an http(s) URL`,
  });
const whole = (minimum: number, maximum: number, description: string) =>
  Type.Integer({ minimum, maximum, description: `${description}, from ${minimum} to ${maximum}` });
const secret = (description: string) => Type.String({ maxLength: 512, writeOnly: true, description });

export const SiteIdentitySettings = Type.Object(
  {
    site_name: Type.String({ minLength: 1, maxLength: 64, description: 'shown in the title and on the sign-in page' }),
    logo_url: httpUrlOrEmpty('logo image'),
    footer_link: httpUrlOrEmpty('link under the footer text'),
    footer_copyright: text(200, 'footer text'),
  },
  { additionalProperties: false },
);
export type SiteIdentitySettings = Static<typeof SiteIdentitySettings>;

export const RegisterSettings = Type.Object(
  {
    register_open: Type.Boolean({ description: 'anyone may register' }),
    register_email: FieldRequirement,
    register_phone: FieldRequirement,
    register_qq: FieldRequirement,
    agreement_url: httpUrlOrEmpty('user agreement'),
  },
  { additionalProperties: false },
);
export type RegisterSettings = Static<typeof RegisterSettings>;

export const CaptchaSettings = Type.Object(
  {
    login_failure_limit: whole(1, 100, 'failed sign-ins before a captcha is asked'),
    login_failure_window_seconds: whole(60, 86_400, 'seconds failed sign-ins are counted'),
    login_ip_throttle_limit: whole(1, 10_000, 'failed sign-ins from one address before it waits'),
    verify_code_ttl_seconds: whole(60, 3600, 'seconds an email or phone code is valid'),
    verify_code_resend_seconds: whole(10, 3600, 'seconds before a code can be sent again to the same address'),
    verify_code_max_attempts: whole(1, 20, 'wrong tries before a code is spent'),
    verify_codes_per_hour: whole(1, 100, 'codes one address or phone number receives an hour'),
    verify_codes_per_ip_hour: whole(1, 1000, 'codes one client address may ask for an hour'),
  },
  { additionalProperties: false },
);
export type CaptchaSettings = Static<typeof CaptchaSettings>;

export const SmtpSettings = Type.Object(
  {
    smtp_host: Type.String({
      maxLength: 253,
      pattern: '^([A-Za-z0-9.-]+)?$',
      description: 'mail server host name; empty: the server the master was started with',
    }),
    smtp_port: whole(1, 65_535, 'mail server port'),
    smtp_secure: Type.Boolean({ description: 'TLS from the start (port 465) instead of STARTTLS' }),
    smtp_username: text(254, 'sign-in name at the mail server'),
    smtp_password: secret('password at the mail server, never shown again once saved'),
    smtp_from: text(254, 'sender, such as Rampart <no-reply@example.com>'),
  },
  { additionalProperties: false },
);
export type SmtpSettings = Static<typeof SmtpSettings>;

export const SmsProvider = Type.Union([Type.Literal('none'), Type.Literal('aliyun'), Type.Literal('tencent')], {
  description: 'none, aliyun or tencent',
});
export type SmsProvider = Static<typeof SmsProvider>;

export const SmsSettings = Type.Object(
  {
    sms_provider: SmsProvider,
    sms_endpoint: httpUrlOrEmpty("provider API address; empty: the provider's own"),
    sms_access_key_id: text(128, 'access key id at the provider'),
    sms_secret: secret('access key secret at the provider, never shown again once saved'),
    sms_sign_name: text(64, 'signature name approved by the provider'),
    sms_template_code: text(64, 'template of the code message'),
    sms_app_id: text(64, 'SMS application id (Tencent Cloud SmsSdkAppId); unused by aliyun'),
  },
  { additionalProperties: false },
);
export type SmsSettings = Static<typeof SmsSettings>;

export const SessionSettings = Type.Object(
  { session_ttl_hours: whole(1, 720, 'hours a sign-in lasts') },
  { additionalProperties: false },
);
export type SessionSettings = Static<typeof SessionSettings>;

export const PasswordPolicy = Type.Object(
  {
    password_min_length: whole(6, 64, 'shortest password'),
    password_require_letter: Type.Boolean({ description: 'a password needs a letter' }),
    password_require_digit: Type.Boolean({ description: 'a password needs a digit' }),
    password_require_symbol: Type.Boolean({ description: 'a password needs a character that is neither' }),
  },
  { additionalProperties: false },
);
export type PasswordPolicy = Static<typeof PasswordPolicy>;

export const Locale = Type.Union([Type.Literal('zh-CN'), Type.Literal('en-US')], { description: 'zh-CN or en-US' });
export type Locale = Static<typeof Locale>;

export const LocaleSettings = Type.Object(
  {
    default_language: Locale,
    languages: Type.Array(Locale, {
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      description: 'the languages users may pick, at least one',
    }),
  },
  { additionalProperties: false },
);
export type LocaleSettings = Static<typeof LocaleSettings>;

/**
 * How long the master keeps what it records. Raw access and stream logs feed the access log and
 * top-N (at most 31 days); a chart reads per-minute traffic only within `minute_rollup_days`, per-hour
 * within `hour_rollup_days`, and per-day traffic beyond (kept for good: one row a site a day).
 */
export const RetentionSettings = Type.Object(
  {
    log_retention_days: whole(180, 3650, 'days the operation, sign-in, message-send and IP-switch logs are kept'),
    access_log_days: whole(1, 31, 'days raw access and stream log lines are kept'),
    minute_rollup_days: whole(1, 31, 'days per-minute traffic and node reports are kept'),
    hour_rollup_days: whole(7, 400, 'days per-hour traffic is kept'),
    usage_sample_days: whole(62, 400, 'days the 5-minute usage samples (95th percentile) are kept'),
  },
  { additionalProperties: false },
);
export type RetentionSettings = Static<typeof RetentionSettings>;

/** How customers do business: whether a site or stream needs a package. */
export const BusinessSettings = Type.Object(
  {
    require_package: Type.Boolean({
      description:
        'customers need an active package to create a site or a stream (operators and exempt accounts never do)',
    }),
  },
  { additionalProperties: false },
);
export type BusinessSettings = Static<typeof BusinessSettings>;

/** DNS APIs: whether one may point at a loopback or private address (a self-hosted PowerDNS). */
export const DnsApiSettings = Type.Object(
  {
    dnsapi_allow_private: Type.Boolean({
      description:
        'DNS API accounts may use loopback and private addresses (a PowerDNS beside the master); it also lets anyone who may add a DNS API account make the master call addresses inside its network',
    }),
  },
  { additionalProperties: false },
);
export type DnsApiSettings = Static<typeof DnsApiSettings>;

/**
 * Proof of domain ownership: a site's domain reaches the edges only once its owner proved it (a TXT
 * record or the site's CNAME). Switching it on keeps the domains already on sites live (proved as
 * `live`), so no customer goes offline.
 */
export const DomainProofSettings = Type.Object(
  {
    domain_proof: Type.Boolean({
      description:
        "a site's domain is served only once its owner proved it (TXT record _rampart-challenge.<domain> or the site's CNAME); switching it on keeps the domains already on sites live",
    }),
  },
  { additionalProperties: false },
);
export type DomainProofSettings = Static<typeof DomainProofSettings>;

/** The tabs of /sys/setting: the config name under `global-0-system-` and its schema. */
export const SYSTEM_SETTING_GROUPS = {
  site: SiteIdentitySettings,
  register: RegisterSettings,
  captcha: CaptchaSettings,
  smtp: SmtpSettings,
  sms: SmsSettings,
  session: SessionSettings,
  password: PasswordPolicy,
  locale: LocaleSettings,
  retention: RetentionSettings,
  business: BusinessSettings,
  dns: DnsApiSettings,
  domains: DomainProofSettings,
} as const satisfies Record<string, TSchema>;
export type SystemSettingGroup = keyof typeof SYSTEM_SETTING_GROUPS;

/** What a saved secret reads as; sending it back in a PUT keeps the stored secret. */
export const SECRET_MASK = '******';
/** Fields that are never answered once saved. */
export const SECRET_SETTINGS: readonly string[] = ['smtp_password', 'sms_secret'];
export const systemSettingKey = (group: SystemSettingGroup) => `global-0-system-${group}`;

/** Whether a password meets the policy; the rule it breaks otherwise, in words. */
export function passwordPolicyBreach(password: string, policy: PasswordPolicy): string | null {
  if (password.length < policy.password_min_length) return `must be at least ${policy.password_min_length} characters`;
  if (policy.password_require_letter && !/\p{L}/u.test(password)) return 'must contain a letter';
  if (policy.password_require_digit && !/\p{Nd}/u.test(password)) return 'must contain a digit';
  if (policy.password_require_symbol && !/[^\p{L}\p{Nd}]/u.test(password)) return 'must contain a symbol';
  return null;
}
