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
