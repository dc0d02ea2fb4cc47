import { type Static, Type } from 'typebox';
import { Id } from '../fields.ts';
import { ObjectName } from './fields.ts';

export const DnsProviderName = Type.Union(
  [Type.Literal('powerdns'), Type.Literal('cloudflare'), Type.Literal('dnspod'), Type.Literal('alidns')],
  { description: 'powerdns, cloudflare, dnspod or alidns' },
);
export type DnsProviderName = Static<typeof DnsProviderName>;

const Secret = (description: string) =>
  Type.String({ minLength: 1, maxLength: 256, pattern: '^[\\x21-\\x7e]+$', description });

export const PowerDnsCredentials = Type.Object(
  {
    url: Type.String({
      minLength: 8,
      maxLength: 512,
      description: 'the PowerDNS API base URL, such as https://ns.example.com:8081',
    }),
    api_key: Secret('the API key (printable, no spaces)'),
    server_id: Type.Optional(
      Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$', description: 'the server id, localhost by default' }),
    ),
  },
  { additionalProperties: false },
);
export type PowerDnsCredentials = Static<typeof PowerDnsCredentials>;

export const CloudflareCredentials = Type.Object(
  { api_token: Secret('a Cloudflare API token with Zone:Read and DNS:Edit (printable, no spaces)') },
  { additionalProperties: false },
);
export type CloudflareCredentials = Static<typeof CloudflareCredentials>;

export const DnspodCredentials = Type.Object(
  {
    secret_id: Secret('the Tencent Cloud SecretId (printable, no spaces)'),
    secret_key: Secret('the Tencent Cloud SecretKey (printable, no spaces)'),
  },
  { additionalProperties: false },
);
export type DnspodCredentials = Static<typeof DnspodCredentials>;

export const AlidnsCredentials = Type.Object(
  {
    access_key_id: Secret('the Alibaba Cloud AccessKey ID (printable, no spaces)'),
    access_key_secret: Secret('the Alibaba Cloud AccessKey secret (printable, no spaces)'),
  },
  { additionalProperties: false },
);
export type AlidnsCredentials = Static<typeof AlidnsCredentials>;

/** Which credential fields each provider takes; the master checks the body against its provider's. */
export const DNS_CREDENTIAL_FIELDS = {
  powerdns: { required: ['url', 'api_key'], optional: ['server_id'] },
  cloudflare: { required: ['api_token'], optional: [] },
  dnspod: { required: ['secret_id', 'secret_key'], optional: [] },
  alidns: { required: ['access_key_id', 'access_key_secret'], optional: [] },
} as const satisfies Record<DnsProviderName, { required: readonly string[]; optional: readonly string[] }>;

/** Every provider's credential fields in one object; which ones apply depends on `provider`. */
export const DnsApiCredentials = Type.Object(
  {
    url: Type.Optional(PowerDnsCredentials.properties.url),
    api_key: Type.Optional(PowerDnsCredentials.properties.api_key),
    server_id: PowerDnsCredentials.properties.server_id,
    api_token: Type.Optional(CloudflareCredentials.properties.api_token),
    secret_id: Type.Optional(DnspodCredentials.properties.secret_id),
    secret_key: Type.Optional(DnspodCredentials.properties.secret_key),
    access_key_id: Type.Optional(AlidnsCredentials.properties.access_key_id),
    access_key_secret: Type.Optional(AlidnsCredentials.properties.access_key_secret),
  },
  {
    additionalProperties: false,
    description:
      'powerdns: url, api_key, server_id; cloudflare: api_token; dnspod: secret_id, secret_key; alidns: access_key_id, access_key_secret',
  },
);
export type DnsApiCredentials = Static<typeof DnsApiCredentials>;

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
  { name: ObjectName, provider: DnsProviderName, credentials: DnsApiCredentials },
  { additionalProperties: false },
);
export type CreateDnsApiBody = Static<typeof CreateDnsApiBody>;

export const UpdateDnsApiBody = Type.Object(
  { name: Type.Optional(ObjectName), credentials: Type.Optional(DnsApiCredentials) },
  { additionalProperties: false },
);
export type UpdateDnsApiBody = Static<typeof UpdateDnsApiBody>;

/** POST /v1/domains: point every domain of the site at its CNAME target through the DNS API. */
export const SyncDomainsBody = Type.Object({ dnsapi_id: Id, site_id: Id }, { additionalProperties: false });

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
