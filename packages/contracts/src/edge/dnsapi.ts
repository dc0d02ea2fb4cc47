import { type Static, Type } from 'typebox';
import { ObjectName } from './fields.ts';

export const DnsProviderName = Type.Union([Type.Literal('powerdns')], {
  description: 'powerdns (Cloudflare and DNSPod follow)',
});

export const PowerDnsCredentials = Type.Object(
  {
    url: Type.String({
      minLength: 8,
      maxLength: 512,
      description: 'the PowerDNS API base URL, such as https://ns.example.com:8081',
    }),
    api_key: Type.String({
      minLength: 1,
      maxLength: 256,
      pattern: '^[\\x21-\\x7e]+$',
      description: 'the API key (printable, no spaces)',
    }),
    server_id: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$', description: 'the server id, localhost by default' }),
    ),
  },
  { additionalProperties: false },
);

/** A DNS provider account as calls return it: never its credentials. */
export const DnsApi = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  name: Type.String(),
  provider: Type.String(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
export type DnsApi = Static<typeof DnsApi>;

export const CreateDnsApiBody = Type.Object(
  { name: ObjectName, provider: DnsProviderName, credentials: PowerDnsCredentials },
  { additionalProperties: false },
);
export type CreateDnsApiBody = Static<typeof CreateDnsApiBody>;

export const UpdateDnsApiBody = Type.Object(
  { name: Type.Optional(ObjectName), credentials: Type.Optional(PowerDnsCredentials) },
  { additionalProperties: false },
);
export type UpdateDnsApiBody = Static<typeof UpdateDnsApiBody>;

/** POST /v1/domains: point every domain of the site at its CNAME target through the DNS API. */
export const SyncDomainsBody = Type.Object(
  { dnsapi_id: Type.Integer({ minimum: 1 }), site_id: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);

export const DomainSync = Type.Object({
  domain: Type.String(),
  zone: Type.Union([Type.String(), Type.Null()]),
  ok: Type.Boolean(),
  error: Type.String(),
});
export type DomainSync = Static<typeof DomainSync>;

/** POST /v1/domains: the CNAME record made (or not) for each of the site's domains. */
export const DomainSyncResult = Type.Object({ target: Type.String(), domains: Type.Array(DomainSync) });
export type DomainSyncResult = Static<typeof DomainSyncResult>;

/** POST /v1/cname-check: where each of the site's domains points now, and whether that is its target. */
export const CnameCheck = Type.Object({
  target: Type.String(),
  domains: Type.Array(
    Type.Object({
      domain: Type.String(),
      cname: Type.Union([Type.String(), Type.Null()]),
      points: Type.Boolean(),
      reason: Type.String(),
    }),
  ),
});
export type CnameCheck = Static<typeof CnameCheck>;
