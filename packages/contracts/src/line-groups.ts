import { type Static, Type } from 'typebox';
import { DnsProviderName } from './edge/dnsapi.ts';
import { IpAddress, ObjectName } from './edge/fields.ts';
import { Id } from './fields.ts';

/**
 * DNS lines and line groups (`/v1/lines`, `/v1/node-groups`, `/node/line-group`, `/node/dns`): a
 * line group is a CNAME host under a CNAME domain whose A/AAAA records, per DNS line, point at chosen
 * node IPs with weights, with backup IPs or a backup line group used when every primary is down.
 */

const Time = Type.String({ description: 'ISO 8601' });

const HOST_LABEL_RULE = 'one DNS label: 1 to 63 lowercase letters, digits or -, not starting or ending with -';

/** One DNS label, such as lg1 (the line group's host under its CNAME domain). */
export const HostLabel = Type.String({
  pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$',
  description: HOST_LABEL_RULE,
});

/** A line as its provider names it, such as 电信 (DNSPod) or telecom (AliDNS). */
export const LineCode = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^\\u0000-\\u001f\\u007f<>"\'`\\\\{};$#]+$',
  description: '1 to 64 characters without control characters, quotes, \\ < > { } ; $ # or `',
});

export const LineBody = Type.Object(
  {
    /** '' for a line every provider has; else the provider whose line it is. */
    provider: Type.Union([Type.Literal(''), DnsProviderName], {
      description: 'empty for every provider, or powerdns, cloudflare, dnspod or alidns',
    }),
    code: LineCode,
    name_zh: ObjectName,
    name_en: ObjectName,
  },
  { additionalProperties: false },
);
export type LineBody = Static<typeof LineBody>;

export const LineUpdate = Type.Partial(LineBody, { additionalProperties: false });
export type LineUpdate = Static<typeof LineUpdate>;

export const LineView = Type.Object({
  id: Id,
  provider: Type.String(),
  code: Type.String(),
  name_zh: Type.String(),
  name_en: Type.String(),
});
export type LineView = Static<typeof LineView>;

/** The code of the line every provider has; it is seeded and cannot be deleted. */
export const DEFAULT_LINE_CODE = 'default';

export const LineSyncBody = Type.Object(
  { dnsapi_id: Id, zone: Type.Optional(Type.String({ maxLength: 253 })) },
  { additionalProperties: false },
);
export type LineSyncBody = Static<typeof LineSyncBody>;

export const LineSyncResult = Type.Object({ added: Type.Integer(), total: Type.Integer() });
export type LineSyncResult = Static<typeof LineSyncResult>;

export const LINE_WEIGHT = { min: 1, max: 100, default: 1 } as const;

/** One IP of a line group on one line. */
export const LineRecord = Type.Object(
  {
    line_id: Id,
    ip: IpAddress,
    weight: Type.Optional(
      Type.Integer({ minimum: LINE_WEIGHT.min, maximum: LINE_WEIGHT.max, description: 'from 1 to 100' }),
    ),
    /** Used only when every primary IP of the line is down. */
    backup: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type LineRecord = Static<typeof LineRecord>;

export const lineGroupFields = {
  name: ObjectName,
  cname_domain_id: Type.Optional(Type.Union([Id, Type.Null()], { description: 'the CNAME domain, or null' })),
  host: Type.Optional(
    Type.Union([Type.Literal(''), HostLabel], { description: `empty (not published yet) or ${HOST_LABEL_RULE}` }),
  ),
  backup_group_id: Type.Optional(
    Type.Union([Id, Type.Null()], { description: 'the line group used when a line has no IP up, or null' }),
  ),
  is_default: Type.Optional(Type.Boolean()),
  records: Type.Optional(Type.Array(LineRecord, { maxItems: 2000 })),
};

export const LineGroupBody = Type.Object(lineGroupFields, { additionalProperties: false });
export type LineGroupBody = Static<typeof LineGroupBody>;

export const LineGroupUpdate = Type.Partial(LineGroupBody, { additionalProperties: false });
export type LineGroupUpdate = Static<typeof LineGroupUpdate>;

export const LineGroupView = Type.Object({
  id: Id,
  name: Type.String(),
  cname_domain_id: Type.Union([Id, Type.Null()]),
  host: Type.String(),
  /** host.cname domain, or '' while either is missing. */
  fqdn: Type.String(),
  backup_group_id: Type.Union([Id, Type.Null()]),
  is_default: Type.Boolean(),
  records: Type.Array(Type.Object({ line_id: Id, ip: Type.String(), weight: Type.Integer(), backup: Type.Boolean() })),
  node_count: Type.Integer(),
  /** The last publishing's error; '' when it went through. */
  publish_error: Type.String(),
  published_at: Type.Union([Time, Type.Null()]),
});
export type LineGroupView = Static<typeof LineGroupView>;

/** The TTLs Rampart asks a DNS provider for, in seconds; each provider raises them to its own minimum. */
export const DNS_TTL = { min: 1, max: 86400 } as const;

const TtlSeconds = (description: string) =>
  Type.Integer({ minimum: DNS_TTL.min, maximum: DNS_TTL.max, description: `${description}: 1 to 86400 seconds` });

/**
 * The value of `global-0-dns-ttl` (/node/dns): the TTL of the records line groups publish (A/AAAA of
 * each group's host) and of sites' CNAMEs. Providers with a larger minimum use theirs: Cloudflare 60
 * (1 means automatic), DNSPod 600, AliDNS its edition's minimum (600 on the free edition).
 */
export const DnsTtlSettings = Type.Object(
  {
    address_ttl: TtlSeconds('TTL of line groups’ A and AAAA records'),
    cname_ttl: TtlSeconds('TTL of sites’ CNAME records'),
  },
  { additionalProperties: false },
);
export type DnsTtlSettings = Static<typeof DnsTtlSettings>;

/** Addresses change on failover: resolvers keep them a minute at most. */
export const DEFAULT_DNS_TTL: DnsTtlSettings = { address_ttl: 60, cname_ttl: 300 };

/** One record as the provider holds it or as publishing would write it. */
export const DnsRecordState = Type.Object({
  value: Type.String(),
  ttl: Type.Integer(),
  /** null where the provider keeps no weight or the line's records all weigh the same. */
  weight: Type.Union([Type.Integer(), Type.Null()]),
});
export type DnsRecordState = Static<typeof DnsRecordState>;

/** A record that differs between the provider and what the line group says. */
export const DnsDifference = Type.Object({
  /** missing: publishing would write it; extra: the provider has it and publishing would remove it; different: both have it, unalike. */
  kind: Type.Union([Type.Literal('missing'), Type.Literal('extra'), Type.Literal('different')]),
  name: Type.String({ description: 'the record’s full name' }),
  type: Type.String({ description: 'A, AAAA or CNAME' }),
  line: Type.String({ description: 'the line as the provider names it; empty for its default line' }),
  expected: Type.Union([DnsRecordState, Type.Null()], { description: 'what publishing writes; null for extra' }),
  actual: Type.Union([DnsRecordState, Type.Null()], { description: 'what the provider holds; null for missing' }),
  /** For different: which of value, ttl and weight differ. */
  fields: Type.Array(Type.Union([Type.Literal('value'), Type.Literal('ttl'), Type.Literal('weight')])),
});
export type DnsDifference = Static<typeof DnsDifference>;

/** A line group's records at its provider compared with what publishing would write now. */
export const DnsDrift = Type.Object({
  group_id: Id,
  group_name: Type.String(),
  /** The group's host.CNAME domain; '' when it has none (nothing is published, nothing checked). */
  fqdn: Type.String(),
  provider: Type.String({ description: 'the DNS provider of the group’s CNAME domain; empty when none' }),
  checked_at: Time,
  /** Site CNAMEs pointing at this group that were compared too. */
  sites_checked: Type.Integer(),
  differences: Type.Array(DnsDifference),
  /** Why the check (or the repair) could not finish; '' when it did. */
  error: Type.String(),
});
export type DnsDrift = Static<typeof DnsDrift>;
