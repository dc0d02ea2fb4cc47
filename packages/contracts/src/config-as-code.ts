import { type Static, type TSchema, Type } from 'typebox';
import { ObjectName } from './edge/fields.ts';
import { RuleLine, SiteProtection } from './edge/protection.ts';
import { AclEntries, CreateCcFilterBody, CreateCcMatchBody } from './edge/protection-api.ts';
import { SiteSettings } from './edge/site.ts';
import { StreamSettings } from './edge/stream.ts';
import { UserConfigs } from './edge/user-configs.ts';
import { Id } from './fields.ts';
import { HostLabel, LineBody, LineCode, LineRecord } from './line-groups.ts';
import { PackageBody } from './packages.ts';

/**
 * Configuration as code (GET /v1/export, POST /v1/import): a customer's configuration as one
 * document, every object named by a stable name instead of a database id. References between
 * objects are by name too; a system rule group, match or filter (an administrator's, every user
 * may use it) is named `system:<name>`.
 */

export const DOCUMENT_VERSION = 1;
export const CUSTOMER_KIND = 'rampart/customer';
/** The prefix of a reference to a system row. */
export const SYSTEM_REF_PREFIX = 'system:';

/** A reference to a rule group, match or filter: its name, or `system:<name>` for a system row. */
export const ObjectRef = Type.String({
  minLength: 1,
  maxLength: 71,
  pattern: '^(?:system:)?[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029<>"\'`\\\\{};$#]+$',
  description: 'a name, or system:<name> for a system row',
});
export type ObjectRef = Static<typeof ObjectRef>;

const optional = <T extends Record<string, TSchema>>(properties: T) =>
  Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, Type.Optional(schema)])) as {
    [K in keyof T]: ReturnType<typeof Type.Optional<T[K]>>;
  };

const {
  rule_group_id: _ruleGroup,
  attack_rule_group_id: _attackGroup,
  ...protectionFields
} = SiteProtection.properties;

/** SiteSettings.protection with its rule groups by name; a field left out keeps what the site has. */
export const DocumentSiteProtection = Type.Object(
  {
    ...optional(protectionFields),
    rule_group: Type.Optional(Type.Union([ObjectRef, Type.Null()])),
    attack_rule_group: Type.Optional(Type.Union([ObjectRef, Type.Null()])),
  },
  { additionalProperties: false },
);
export type DocumentSiteProtection = Static<typeof DocumentSiteProtection>;

const { cert_id: _certId, protection: _protection, ...siteFields } = SiteSettings.properties;

/**
 * A site's settings as in POST /v1/sites, with `cert` (a certificate's name) for `cert_id`. A new
 * site takes the defaults for what is left out; an existing site keeps it.
 */
export const DocumentSiteSettings = Type.Object(
  {
    ...optional(siteFields),
    domains: siteFields.domains,
    origins: siteFields.origins,
    cert: Type.Optional(Type.Union([ObjectName, Type.Null()])),
    protection: Type.Optional(DocumentSiteProtection),
  },
  { additionalProperties: false },
);
export type DocumentSiteSettings = Static<typeof DocumentSiteSettings>;

export const DocumentSite = Type.Object(
  {
    name: ObjectName,
    /** A site group of the document (by name); null or absent: none. */
    group: Type.Optional(Type.Union([ObjectName, Type.Null()])),
    settings: DocumentSiteSettings,
  },
  { additionalProperties: false },
);
export type DocumentSite = Static<typeof DocumentSite>;

export const DocumentGroup = Type.Object({ name: ObjectName }, { additionalProperties: false });
export type DocumentGroup = Static<typeof DocumentGroup>;

/** A site's ACL (one per site), by the site's name. */
export const DocumentAcl = Type.Object({ site: ObjectName, entries: AclEntries }, { additionalProperties: false });
export type DocumentAcl = Static<typeof DocumentAcl>;

export const DocumentCcMatch = Type.Object(
  { name: CreateCcMatchBody.properties.name, conditions: CreateCcMatchBody.properties.conditions },
  { additionalProperties: false },
);
export type DocumentCcMatch = Static<typeof DocumentCcMatch>;

const { system: _system, user_id: _userId, ...filterFields } = CreateCcFilterBody.properties;
export const DocumentCcFilter = Type.Object(filterFields, { additionalProperties: false });
export type DocumentCcFilter = Static<typeof DocumentCcFilter>;

/** A rule line with its match and filter by name. */
export const DocumentRuleLine = Type.Object(
  {
    match: ObjectRef,
    filter: ObjectRef,
    action: RuleLine.properties.action,
    /** Default 600. */
    ban_seconds: RuleLine.properties.ban_seconds,
  },
  { additionalProperties: false },
);
export type DocumentRuleLine = Static<typeof DocumentRuleLine>;

export const DocumentCcRuleGroup = Type.Object(
  { name: ObjectName, rules: Type.Array(DocumentRuleLine, { maxItems: 100, description: 'at most 100 rules' }) },
  { additionalProperties: false },
);
export type DocumentCcRuleGroup = Static<typeof DocumentCcRuleGroup>;

const streamFields = StreamSettings.properties;
export const DocumentStream = Type.Object(
  {
    name: ObjectName,
    group: Type.Optional(Type.Union([ObjectName, Type.Null()])),
    settings: Type.Object(
      {
        listen_port: streamFields.listen_port,
        protocol: streamFields.protocol,
        origins: streamFields.origins,
        balance: Type.Optional(streamFields.balance),
        proxy_protocol: Type.Optional(streamFields.proxy_protocol),
        enabled: Type.Optional(streamFields.enabled),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type DocumentStream = Static<typeof DocumentStream>;

/**
 * A certificate by reference: import neither makes nor changes certificates (issue or upload them
 * with /v1/certs); sites name them. The PEM fields are exported only with `include_keys=true`.
 */
export const DocumentCert = Type.Object(
  {
    name: ObjectName,
    domains: Type.Array(Type.String()),
    not_after: Type.Union([Type.String(), Type.Null()]),
    cert: Type.Optional(Type.String()),
    key: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type DocumentCert = Static<typeof DocumentCert>;

/**
 * The customer document. A section left out is not touched by an import; a section given is the
 * whole truth of its kind: objects of the caller's it does not name are deleted.
 */
export const CustomerDocument = Type.Object(
  {
    version: Type.Literal(DOCUMENT_VERSION),
    kind: Type.Literal(CUSTOMER_KIND),
    site_groups: Type.Optional(Type.Array(DocumentGroup, { maxItems: 10_000 })),
    cc_matches: Type.Optional(Type.Array(DocumentCcMatch, { maxItems: 10_000 })),
    cc_filters: Type.Optional(Type.Array(DocumentCcFilter, { maxItems: 10_000 })),
    cc_rule_groups: Type.Optional(Type.Array(DocumentCcRuleGroup, { maxItems: 10_000 })),
    sites: Type.Optional(Type.Array(DocumentSite, { maxItems: 10_000 })),
    acls: Type.Optional(Type.Array(DocumentAcl, { maxItems: 10_000 })),
    stream_groups: Type.Optional(Type.Array(DocumentGroup, { maxItems: 10_000 })),
    streams: Type.Optional(Type.Array(DocumentStream, { maxItems: 10_000 })),
    user_configs: Type.Optional(UserConfigs),
    certificates: Type.Optional(Type.Array(DocumentCert, { maxItems: 10_000 })),
  },
  { additionalProperties: false },
);
export type CustomerDocument = Static<typeof CustomerDocument>;

/** The kinds of object a plan names, in the order an import applies them. */
export const DOCUMENT_KINDS = [
  'site_group',
  'stream_group',
  'cc_match',
  'cc_filter',
  'cc_rule_group',
  'site',
  'acl',
  'stream',
  'user_configs',
  'config',
  'dns_line',
  'line_group',
  'package',
] as const;
export const DocumentKind = Type.Union(
  [
    Type.Literal('site_group'),
    Type.Literal('stream_group'),
    Type.Literal('cc_match'),
    Type.Literal('cc_filter'),
    Type.Literal('cc_rule_group'),
    Type.Literal('site'),
    Type.Literal('acl'),
    Type.Literal('stream'),
    Type.Literal('user_configs'),
    Type.Literal('config'),
    Type.Literal('dns_line'),
    Type.Literal('line_group'),
    Type.Literal('package'),
  ],
  { description: DOCUMENT_KINDS.join(', ') },
);
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const ExportFormat = Type.Union([Type.Literal('yaml'), Type.Literal('json')], { description: 'yaml or json' });
export type ExportFormat = Static<typeof ExportFormat>;

export const ExportQuery = Type.Object(
  {
    format: Type.Optional(ExportFormat),
    /** Certificates' PEM certificate and key too: needs `password` or `totp_code`. */
    include_keys: Type.Optional(Type.Boolean()),
    /** Administrators holding admin:user: that user's configuration instead of their own. */
    user_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ExportQuery = Static<typeof ExportQuery>;

/** GET /v1/export?include_keys=true asks again who the caller is: their password or a code from their two-factor app. */
export const EXPORT_CONFIRM_PASSWORD_HEADER = 'x-confirm-password';
export const EXPORT_CONFIRM_CODE_HEADER = 'x-confirm-code';

export const ImportBody = Type.Object(
  {
    /** The document, as YAML or JSON text or as an object. */
    document: Type.Union([Type.String({ maxLength: 16_777_216 }), Type.Object({})], {
      description: 'the document as YAML or JSON text, or as an object',
    }),
    /** true: answer the plan and change nothing. */
    dry_run: Type.Optional(Type.Boolean()),
    /** Administrators holding admin:user: plan or apply against that user's configuration. */
    user_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ImportBody = Static<typeof ImportBody>;

export const PlanField = Type.Object({
  path: Type.String({ description: 'the field, e.g. settings.cache_rules[0].ttl' }),
  from: Type.Unknown(),
  to: Type.Unknown(),
});
export type PlanField = Static<typeof PlanField>;

export const PlanAction = Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')], {
  description: 'create, update or delete',
});
export type PlanAction = Static<typeof PlanAction>;

export const PlanChange = Type.Object({
  action: PlanAction,
  kind: DocumentKind,
  name: Type.String(),
  /** Updates: each field that changes. */
  fields: Type.Optional(Type.Array(PlanField)),
});
export type PlanChange = Static<typeof PlanChange>;

export const ImportPlan = Type.Object({
  changes: Type.Array(PlanChange),
  /** Whether the changes were made (false for a dry run or an empty plan). */
  applied: Type.Boolean(),
  /** The config version the changes committed with; null when nothing was applied. */
  config_version: Type.Union([Type.Integer(), Type.Null()]),
});
export type ImportPlan = Static<typeof ImportPlan>;

export const FLEET_KIND = 'rampart/fleet';

const {
  group_id: _packageGroup,
  line_group_id: _lineGroup,
  cc_rule_group_ids: _ruleGroups,
  ...packageFields
} = PackageBody.properties;

/**
 * A package of the catalogue (POST /v1/packages) by name, its package group and line group by name
 * and its rule groups as `system:<name>` (a rule group of a user's is written as its id). A field
 * left out keeps its value.
 */
export const FleetPackage = Type.Object(
  {
    ...packageFields,
    group: Type.Optional(Type.Union([ObjectName, Type.Null()])),
    line_group: Type.Optional(Type.Union([ObjectName, Type.Null()])),
    cc_rule_groups: Type.Optional(Type.Array(Type.Union([ObjectRef, Id]), { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type FleetPackage = Static<typeof FleetPackage>;

/**
 * A DNS line of the catalogue (POST /v1/lines), by its code and provider (`''`: a line every
 * provider has); named in a plan `<provider>/<code>`, or `<code>` for every provider's.
 */
export const FleetDnsLine = Type.Object(
  {
    provider: LineBody.properties.provider,
    code: LineCode,
    name_zh: LineBody.properties.name_zh,
    name_en: LineBody.properties.name_en,
  },
  { additionalProperties: false },
);
export type FleetDnsLine = Static<typeof FleetDnsLine>;

/**
 * One IP of a line group on one DNS line: the line by its code (and `provider` where several
 * providers' lines share the code), the node by its name and one of that node's IPs.
 */
export const FleetLineRecord = Type.Object(
  {
    line: LineCode,
    provider: Type.Optional(LineBody.properties.provider),
    node: ObjectName,
    ip: LineRecord.properties.ip,
    weight: LineRecord.properties.weight,
    backup: LineRecord.properties.backup,
  },
  { additionalProperties: false },
);
export type FleetLineRecord = Static<typeof FleetLineRecord>;

/**
 * A line group (POST /v1/node-groups) by name: its CNAME domain by domain, its backup line group by
 * name (one of the section), its records as `lines`. A field left out keeps its value.
 */
export const FleetLineGroup = Type.Object(
  {
    name: ObjectName,
    cname_domain: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 253 }), Type.Null()], {
        description: 'a CNAME domain, or null',
      }),
    ),
    host: Type.Optional(Type.Union([Type.Literal(''), HostLabel])),
    backup_group: Type.Optional(Type.Union([ObjectName, Type.Null()])),
    is_default: Type.Optional(Type.Boolean()),
    lines: Type.Optional(Type.Array(FleetLineRecord, { maxItems: 2000 })),
  },
  { additionalProperties: false },
);
export type FleetLineGroup = Static<typeof FleetLineGroup>;

/**
 * The fleet's settings (administrators holding admin:sys): the config entries of /v1/configs the
 * caller holds the code of, by key, except the system settings (/sys/setting), (holding
 * admin:package) the packages by name and (holding admin:node) the DNS lines by code and the line
 * groups by name. An entry left out keeps its value (an import never resets one to its default);
 * the packages, dns_lines and line_groups sections, when given, are the whole catalogue of their kind.
 */
export const FleetDocument = Type.Object(
  {
    version: Type.Literal(DOCUMENT_VERSION),
    kind: Type.Literal(FLEET_KIND),
    configs: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    packages: Type.Optional(Type.Array(FleetPackage, { maxItems: 10_000 })),
    dns_lines: Type.Optional(Type.Array(FleetDnsLine, { maxItems: 10_000 })),
    line_groups: Type.Optional(Type.Array(FleetLineGroup, { maxItems: 10_000 })),
  },
  { additionalProperties: false },
);
export type FleetDocument = Static<typeof FleetDocument>;

export const FleetExportQuery = Type.Object({ format: Type.Optional(ExportFormat) }, { additionalProperties: false });
export type FleetExportQuery = Static<typeof FleetExportQuery>;

export const FleetImportBody = Type.Object(
  { document: ImportBody.properties.document, dry_run: ImportBody.properties.dry_run },
  { additionalProperties: false },
);
export type FleetImportBody = Static<typeof FleetImportBody>;
