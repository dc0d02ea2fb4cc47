import type { Generated } from 'kysely';
import type { BlobTables } from './schema-blobs.ts';
import type { DomainProofTables } from './schema-domain-proofs.ts';
import type { GeoipTables } from './schema-geoip.ts';
import type { PackagesTables } from './schema-packages.ts';
import type { SysOpTables } from './schema-sys-op.ts';

/** Times are integer milliseconds since the epoch in both dialects; flags are 0/1 integers. */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  username_key: string;
  name: string;
  email: string;
  email_key: string | null;
  phone: string;
  phone_key: string | null;
  qq: string;
  password_hash: string;
  type: number;
  access: string;
  group_id: number | null;
  balance: number;
  status: string;
  created_at: number;
  updated_at: number;
  /** 0/1; set by the certification review. */
  certified: Generated<number>;
  /** 0/1; set by an admin: may create sites and streams without a package (`require_package`). */
  package_exempt: Generated<number>;
  /** account, email, phone and name, lowercase, one per line: what the admin's user search reads. */
  search_key: Generated<string>;
}

export interface UserGroupsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  description: string;
  /** 1 on the group new users join. */
  is_default: number;
  /** JSON list of package group ids the group's users may buy; null until packages exist. */
  package_groups: string | null;
  created_at: number;
  updated_at: number;
}

/** The words a user is found by (modules/users/user-search.ts), one row each. */
export interface UserSearchTermsTable {
  term: string;
  user_id: number;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  ip: string;
  user_agent: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** The admin who signed in as this session's user (impersonation), or null. */
  impersonator_id: Generated<number | null>;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  account_key: string;
  ip: string;
  user_id: number | null;
  success: number;
  reason: string;
  created_at: number;
  user_agent: Generated<string>;
  /** password; later totp and key */
  method: Generated<string>;
}

export interface CaptchasTable {
  id: string;
  answer_hash: string;
  expires_at: number;
}

export interface VerifyCodesTable {
  id: Generated<number>;
  channel: string;
  target: string;
  purpose: string;
  code_hash: string;
  attempts: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** The client address that asked for it; '' for older codes. */
  ip: Generated<string>;
}

export interface ScheduledTasksTable {
  name: string;
  enabled: number;
  interval_seconds: number;
  running_since: number | null;
  /** The master running it ('' when none) and until when that claim holds unless renewed (see schedules.ts). */
  run_holder: Generated<string>;
  run_expires_at: number | null;
  run_requested_at: number | null;
  last_started_at: number | null;
  last_finished_at: number | null;
  last_result: string;
  last_error: string;
  last_duration_ms: number | null;
}

export interface MessageSendsTable {
  id: Generated<number>;
  channel: string;
  target: string;
  subject: string;
  body: string;
  status: string;
  error: string;
  created_at: number;
}

export interface ConfigsTable {
  id: Generated<number>;
  scope_name: string;
  scope_id: number;
  type: string;
  name: string;
  value: string;
  updated_at: number;
}

/** WeChat Pay platform certificates downloaded from GET /v3/certificates, per merchant and serial. */
export interface WxpayPlatformCertsTable {
  mchid: string;
  serial: string;
  cert_pem: string;
  effective_at: number;
  expires_at: number;
  fetched_at: number;
}

export interface ConfigStateTable {
  id: number;
  version: number;
}

/** A line group (node group): a CNAME host whose records per DNS line point at node IPs. */
export interface NodeGroupsTable {
  id: Generated<number>;
  name: string;
  created_at: number;
  cname_domain_id: Generated<number | null>;
  host: Generated<string>;
  backup_group_id: Generated<number | null>;
  is_default: Generated<number>;
  publish_error: Generated<string>;
  published_at: Generated<number | null>;
}

/** A DNS line: '' provider for the line every provider has (default), else as that provider names it. */
export interface LinesTable {
  id: Generated<number>;
  provider: string;
  code: string;
  name_zh: string;
  name_en: string;
  created_at: number;
}

/** One IP of a line group on one line, with its weight; backup 1 when used only with every primary down. */
export interface LineGroupRecordsTable {
  id: Generated<number>;
  group_id: number;
  line_id: number;
  ip: string;
  weight: number;
  backup: number;
}

/** A node IP's health as last decided (up or down) and since when. */
export interface NodeIpStatesTable {
  ip: string;
  node_id: number;
  /** up or down */
  state: string;
  changed_at: number;
}

/** One probe's latest result for a node IP and how many in a row (probe: master or node:{id}). */
export interface NodeIpProbesTable {
  ip: string;
  probe: string;
  ok: number;
  streak: number;
  detail: string;
  updated_at: number;
}

/** A node IP's switch between up and down, with the probes' votes (JSON). */
export interface IpSwitchLogTable {
  id: Generated<number>;
  created_at: number;
  ip: string;
  node_id: number;
  node_name: string;
  line_group: string;
  line: string;
  from_state: string;
  to_state: string;
  reason: string;
  votes: string;
}

/** Who decides for now (the health checker's lease), until when. */
export interface HealthLeasesTable {
  name: string;
  holder: string;
  expires_at: number;
}

/**
 * A notice stage claimed (see `claimNotice`): per kind (`cert`, `package`, `package_funds`: days
 * before the expiry in `expires_at`; `package_traffic`: the percent of the month starting at
 * `expires_at`), object and stage.
 */
export interface ExpiryNoticesTable {
  kind: string;
  object_id: number;
  expires_at: number;
  days: number;
  sent_at: number;
}

export interface NamedTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

export interface PendingNodesTable {
  id: Generated<number>;
  hostname: string;
  ips: string;
  agent_version: string;
  secret_hash: string;
  /** pending, accepted or rejected */
  state: string;
  node_id: number | null;
  /** Handed to the agent once, on its first poll after acceptance, then cleared. */
  credential: string | null;
  client_ip: string;
  created_at: number;
}

export interface NodesTable {
  id: Generated<number>;
  name: string;
  ips: string;
  group_id: number | null;
  region_id: number | null;
  enabled: number;
  http_port: number;
  https_port: number;
  max_cache_size_mb: number;
  credential_hash: string;
  applied_version: number;
  last_seen_at: number | null;
  last_error: string;
  dropped_log_lines: number;
  agent_version: string;
  created_at: number;
  updated_at: number;
  /** 1: drained from DNS by the admin, left out of every line group's records. */
  maintenance: Generated<number>;
  /** How far the node's clock runs ahead of the master's, from its last metrics report (null: none yet). */
  clock_offset_seconds: number | null;
  /** When the admins were told of the offset; null while it is under the threshold. */
  clock_skew_noticed_at: number | null;
}

export interface NodeApplyErrorsTable {
  node_id: number;
  kind: string;
  object_id: number;
  error: string;
  version: number;
}

/** A node's view of one origin address of a site with a health check (seconds and ms since the epoch). */
export interface OriginHealthTable {
  node_id: number;
  site_id: number;
  address: string;
  port: number;
  up: number;
  /** Seconds since the epoch of the last check; 0: not checked yet. */
  checked_at: number;
  error: string;
  /** Milliseconds since the epoch of the report. */
  reported_at: number;
}

export interface OwnedGroupTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  created_at: number;
}

export interface CertsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  cert_pem: string;
  key_pem: string;
  names: string;
  issuer: string;
  not_before: number;
  not_after: number;
  created_at: number;
  updated_at: number;
  /** upload or acme; an ACME certificate not yet issued has empty PEM, names and times 0. */
  source: Generated<string>;
  /** ACME: the domains asked for, as JSON. */
  domains: Generated<string>;
  challenge: string | null;
  dnsapi_id: number | null;
  /** The latest issuance task: its state, progress and error are the certificate's. */
  task_id: number | null;
  /** ACME: when the renewal sweep re-issues it (30 days before expiry, or a day after a failed renewal). */
  renew_at: number | null;
}

export interface SitesTable {
  id: Generated<number>;
  user_id: number;
  /** The user package it counts against; null when made before packages or by an admin. */
  user_package_id: Generated<number | null>;
  group_id: number | null;
  name: string;
  primary_domain: string;
  /** SiteSettings as JSON; enabled, https and cert_id are copied out for filtering. */
  settings: string;
  enabled: number;
  https: number;
  cert_id: number | null;
  /** The config version of the site's last change: a node that applied it serves this site as saved. */
  version: number;
  created_at: number;
  updated_at: number;
  /** The line group its CNAME points at; null: the default line group. */
  line_group_id: Generated<number | null>;
}

/** How many sites a user owns: kept by triggers on sites (migration 2026-11-28T0900-site-counts). */
export interface SiteCountsTable {
  user_id: number;
  sites: number;
}

export interface SiteDomainsTable {
  domain: string;
  site_id: number;
  /** The domain spelled backwards: the names under a zone share a prefix (see site-claims.ts). */
  reversed: string;
}

/** Trigram postings of the site's domains (lowercase), for substring search. */
export interface SiteGramsTable {
  gram: string;
  site_id: number;
}

export interface StreamsTable {
  id: Generated<number>;
  user_id: number;
  /** The user package it counts against; null when made before packages or by an admin. */
  user_package_id: Generated<number | null>;
  group_id: number | null;
  name: string;
  listen_port: number;
  protocol: string;
  settings: string;
  enabled: number;
  version: number;
  created_at: number;
  updated_at: number;
}

export interface JobsTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  site_id: number;
  urls: string;
  created_at: number;
}

export interface JobNodesTable {
  job_id: number;
  node_id: number;
  /** pending, done or failed */
  state: string;
  error: string;
  updated_at: number;
}

export interface CnameDomainsTable {
  id: Generated<number>;
  domain: string;
  is_default: number;
  note: string;
  created_at: number;
  /** The DNS API account the domain's records are published through, and the zone there. */
  dnsapi_id: Generated<number | null>;
  zone: Generated<string>;
}

export interface DnsApisTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  provider: string;
  /** Sealed with the master's secret key: never returned by any call. */
  credentials: string;
  created_at: number;
  updated_at: number;
}

export interface TasksTable {
  id: Generated<number>;
  kind: string;
  user_id: number;
  target_id: number | null;
  /** JSON list of names (domains) no two running tasks may share. */
  lock_keys: string;
  /** queued, running, done or failed */
  state: string;
  progress: string;
  error: string;
  attempts: number;
  /** Refreshed while a runner works on it: a running task whose heartbeat stopped is stale. */
  heartbeat_at: number | null;
  /** The runner that claimed it while it runs (a runner that lost its claim writes nothing). */
  runner: Generated<string>;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

export interface AcmeAccountsTable {
  id: Generated<number>;
  directory_url: string;
  /** Sealed with the master's secret key. */
  account_key: string;
  /** Set once the ACME server has made the account. */
  account_url: string | null;
  created_at: number;
}

export interface AcmeChallengesTable {
  token: string;
  key_authorization: string;
  task_id: number;
  created_at: number;
}

/** CC matches, filters and rule groups: user 0 owns the system rows every user may use. */
export interface CcMatchesTable {
  id: Generated<number>;
  /** NULL: a system row. */
  user_id: number | null;
  name: string;
  /** Condition[] as JSON. */
  conditions: string;
  created_at: number;
  updated_at: number;
}

export interface CcFiltersTable {
  id: Generated<number>;
  /** NULL: a system row. */
  user_id: number | null;
  name: string;
  type: string;
  /** The type's settings (FilterSettings without name and type) as JSON. */
  settings: string;
  created_at: number;
  updated_at: number;
}

export interface CcRuleGroupsTable {
  id: Generated<number>;
  /** NULL: a system row. */
  user_id: number | null;
  name: string;
  /** 1 on the one system group that sites without a rule group use. */
  is_default: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** The ordered lines of a rule group. */
export interface CcRuleLinesTable {
  group_id: number;
  position: number;
  match_id: number;
  filter_id: number;
  action: string;
  ban_seconds: number;
}

export interface AclsTable {
  id: Generated<number>;
  site_id: number;
  user_id: number;
  /** AclEntry[] as JSON. */
  entries: string;
  created_at: number;
  updated_at: number;
}

/** Manual bans (site 0: every site) and bans edges set on their own, seen in their block logs. */
export interface BansTable {
  id: Generated<number>;
  /** manual or edge */
  source: string;
  site_id: number;
  cidr: string;
  reason: string;
  node_id: number | null;
  group_id: number;
  match_id: number;
  filter_id: number;
  created_by: number;
  created_at: number;
  expires_at: number;
  lifted_at: number | null;
}

/** One successful write through /v1 (the operation log); `changes` is the masked request body as JSON. */
export interface OpLogsTable {
  id: Generated<number>;
  user_id: number;
  impersonator_id: number | null;
  /** session or key */
  auth_method: string;
  api_key_id: string | null;
  method: string;
  route: string;
  action: string;
  /** The ids written to, as ',1,2,' so that one id is found with a LIKE; '' when none. */
  target_ids: string;
  changes: string;
  ip: string;
  user_agent: string;
  result: string;
  created_at: number;
}

export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  key_id: string;
  /** SHA-256 of the whole Access-Token value, key_id.secret: looked up like a session token. */
  token_hash: string;
  /** read or write */
  scope: string;
  /** JSON list of addresses and CIDR ranges; empty: any address. */
  allow_ips: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
  last_used_ip: Generated<string>;
}

export interface TwoFactorTable {
  user_id: number;
  secret_sealed: string;
  /** null while the secret awaits its confirming code */
  enabled_at: number | null;
  /** the newest 30-second step a code was accepted for: no code works twice */
  last_step: Generated<number>;
  created_at: number;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: number | null;
}

export interface TwoFactorChallengesTable {
  id: Generated<number>;
  user_id: number;
  ip: string;
  attempts: Generated<number>;
  expires_at: number;
}

export interface CertificationsTable {
  id: Generated<number>;
  user_id: number;
  /** personal or company */
  type: string;
  name: string;
  id_number: string;
  /** pending, approved or rejected */
  state: string;
  reason: Generated<string>;
  reviewer_id: number | null;
  created_at: number;
  reviewed_at: number | null;
}

export interface MessagesTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  title: string;
  body: string;
  is_read: Generated<number>;
  read_at: number | null;
  created_at: number;
}

/** A user's channels for one message type, where they differ from the defaults. */
export interface MessageSubscriptionsTable {
  user_id: number;
  type: string;
  in_app: number;
  email: number;
  sms: number;
  webhook: number;
  updated_at: number;
}

export interface MessageWebhooksTable {
  user_id: number;
  url: Generated<string>;
  /** sealed by the secret box; empty: none */
  secret: Generated<string>;
  updated_at: number;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  subject: string;
  payload: string;
  attempts: Generated<number>;
  /** pending, sent or failed */
  state: string;
  next_attempt_at: number;
  last_error: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  title_zh: string;
  text_zh: string;
  title_en: string;
  text_en: string;
  starts_at: number;
  ends_at: number;
  recipients: Generated<number>;
  author_id: number | null;
  created_at: number;
  updated_at: number;
}

export interface Database extends PackagesTables, SysOpTables, GeoipTables, BlobTables, DomainProofTables {
  users: UsersTable;
  user_groups: UserGroupsTable;
  user_search_terms: UserSearchTermsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  captchas: CaptchasTable;
  verify_codes: VerifyCodesTable;
  scheduled_tasks: ScheduledTasksTable;
  message_sends: MessageSendsTable;
  configs: ConfigsTable;
  wxpay_platform_certs: WxpayPlatformCertsTable;
  config_state: ConfigStateTable;
  node_groups: NodeGroupsTable;
  lines: LinesTable;
  line_group_records: LineGroupRecordsTable;
  regions: NamedTable;
  pending_nodes: PendingNodesTable;
  nodes: NodesTable;
  node_ip_states: NodeIpStatesTable;
  node_ip_probes: NodeIpProbesTable;
  ip_switch_log: IpSwitchLogTable;
  health_leases: HealthLeasesTable;
  expiry_notices: ExpiryNoticesTable;
  node_apply_errors: NodeApplyErrorsTable;
  origin_health: OriginHealthTable;
  site_groups: OwnedGroupTable;
  stream_groups: OwnedGroupTable;
  certs: CertsTable;
  sites: SitesTable;
  site_counts: SiteCountsTable;
  site_domains: SiteDomainsTable;
  site_grams: SiteGramsTable;
  streams: StreamsTable;
  jobs: JobsTable;
  job_nodes: JobNodesTable;
  cname_domains: CnameDomainsTable;
  dnsapis: DnsApisTable;
  tasks: TasksTable;
  acme_accounts: AcmeAccountsTable;
  acme_challenges: AcmeChallengesTable;
  cc_matches: CcMatchesTable;
  cc_filters: CcFiltersTable;
  cc_rule_groups: CcRuleGroupsTable;
  cc_rule_lines: CcRuleLinesTable;
  acls: AclsTable;
  bans: BansTable;
  op_logs: OpLogsTable;
  api_keys: ApiKeysTable;
  two_factor: TwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  certifications: CertificationsTable;
  messages: MessagesTable;
  message_subscriptions: MessageSubscriptionsTable;
  message_webhooks: MessageWebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  announcements: AnnouncementsTable;
}
