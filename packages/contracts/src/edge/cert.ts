import { type Static, Type } from 'typebox';
import { Id } from '../fields.ts';
import { OwnerAccount } from '../user.ts';
import { Domain, ObjectName } from './fields.ts';

export const CertSource = Type.Union([Type.Literal('upload'), Type.Literal('acme')], { description: 'upload or acme' });
export type CertSource = Static<typeof CertSource>;

export const AcmeChallengeType = Type.Union([Type.Literal('http-01'), Type.Literal('dns-01')], {
  description: 'http-01 (answered by the edges) or dns-01 (a TXT record made through a DNS API)',
});
export type AcmeChallengeType = Static<typeof AcmeChallengeType>;

/** `issued`: holds a certificate and nothing runs; `issuing`: an issuance is queued or running; `failed`: the last one failed. */
export const CertStatus = Type.Union([Type.Literal('issued'), Type.Literal('issuing'), Type.Literal('failed')]);
export type CertStatus = Static<typeof CertStatus>;

/** The steps of an issuance, in order, as `progress` reports them. */
export const ACME_STEPS = ['queued', 'account', 'order', 'challenge', 'validating', 'finalizing', 'stored'] as const;
export type AcmeStep = (typeof ACME_STEPS)[number];

/** A certificate as calls return it: never the private key. */
export const Cert = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  user_account: Type.Optional(OwnerAccount),
  name: Type.String(),
  source: CertSource,
  names: Type.Array(Type.String(), { description: 'DNS names the certificate covers (empty until first issued)' }),
  /** ACME: the names asked for; upload: the names it covers. */
  domains: Type.Array(Type.String()),
  challenge: Type.Union([AcmeChallengeType, Type.Null()]),
  dnsapi_id: Type.Union([Type.Integer(), Type.Null()]),
  status: CertStatus,
  progress: Type.String({ description: 'the current or last issuance step, empty for an upload' }),
  error: Type.String({ description: 'why the last issuance failed, in plain words; empty otherwise' }),
  renew_at: Type.Union([Type.String(), Type.Null()], { description: 'when an ACME certificate is renewed next' }),
  issuer: Type.String(),
  not_before: Type.Union([Type.String(), Type.Null()]),
  not_after: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});
export type Cert = Static<typeof Cert>;

export const UploadCertBody = Type.Object(
  {
    type: Type.Optional(Type.Literal('upload')),
    name: Type.Optional(ObjectName),
    cert: Type.String({ maxLength: 65_536, description: 'PEM certificate followed by its chain, leaf first' }),
    key: Type.String({ maxLength: 16_384, description: 'PEM private key of the certificate' }),
  },
  { additionalProperties: false },
);
export type UploadCertBody = Static<typeof UploadCertBody>;

export const AcmeDomains = Type.Array(Domain, { minItems: 1, maxItems: 100, description: '1 to 100 domains' });

/** POST /v1/certs with `type: acme`: the master issues the certificate in the background. */
export const AcmeCertBody = Type.Object(
  {
    type: Type.Literal('acme'),
    name: Type.Optional(ObjectName),
    domains: AcmeDomains,
    challenge: AcmeChallengeType,
    /** The DNS API that makes the TXT records (dns-01). */
    dnsapi_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type AcmeCertBody = Static<typeof AcmeCertBody>;

/** PUT /v1/certs/{id}: rename; replace an upload; re-issue an ACME certificate, optionally with new domains. */
export const UpdateCertBody = Type.Object(
  {
    name: Type.Optional(ObjectName),
    cert: Type.Optional(UploadCertBody.properties.cert),
    key: Type.Optional(UploadCertBody.properties.key),
    reissue: Type.Optional(Type.Boolean({ description: 'true: issue the ACME certificate again now' })),
    domains: Type.Optional(AcmeDomains),
    challenge: Type.Optional(AcmeChallengeType),
    dnsapi_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type UpdateCertBody = Static<typeof UpdateCertBody>;

/** PUT /v1/certs: every listed certificate or none; a certificate a site uses is not deleted. */
export const CertBatchBody = Type.Object(
  {
    ids: Type.Array(Id, { minItems: 1, maxItems: 1000 }),
    action: Type.Union([Type.Literal('delete')], { description: 'delete' }),
  },
  { additionalProperties: false },
);
export type CertBatchBody = Static<typeof CertBatchBody>;
