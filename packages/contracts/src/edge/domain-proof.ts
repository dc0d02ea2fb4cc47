import { type Static, Type } from 'typebox';

export const DOMAIN_PROOF_PREFIX = '_rampart-challenge';

/** Where the TXT record proving a domain goes: a wildcard is proved on its zone. */
export const domainProofRecord = (domain: string) => `${DOMAIN_PROOF_PREFIX}.${domain.replace(/^\*\./, '')}`;

export const DomainProofState = Type.Union([Type.Literal('proved'), Type.Literal('pending')], {
  description: 'proved; pending: waiting for proof (while proof is required the edges answer it as an unknown host)',
});
export type DomainProofState = Static<typeof DomainProofState>;

/** One domain of a site and its proof of ownership. */
export const DomainProof = Type.Object({
  domain: Type.String(),
  state: DomainProofState,
  method: Type.Union([Type.Literal(''), Type.Literal('txt'), Type.Literal('cname'), Type.Literal('live')], {
    description: "how it was proved: txt, cname, live (on the edges before proof was required); '' while not",
  }),
  /** The TXT record to create: its name and, for the site's owner, the value (empty for anyone else). */
  record_name: Type.String(),
  token: Type.String({ description: "the TXT record's value; shown to the site's owner only" }),
  reason: Type.String({ description: 'why the last check did not prove it; empty when proved or not checked yet' }),
  reason_code: Type.Union(
    [Type.Literal(''), Type.Literal('no_record'), Type.Literal('wrong_token'), Type.Literal('dns_failed')],
    {
      description:
        "the reason as a code: no_record (no TXT record), wrong_token (a TXT record without the token), dns_failed (DNS did not answer); '' when none",
    },
  ),
  checked_at: Type.Union([Type.String(), Type.Null()]),
  proved_at: Type.Union([Type.String(), Type.Null()]),
});
export type DomainProof = Static<typeof DomainProof>;

/** POST /v1/sites/{id}/domain-proofs/check: each domain's state after checking DNS now. */
export const DomainProofCheck = Type.Object({
  required: Type.Boolean({ description: 'whether the operator requires proof (the domain_proof setting)' }),
  domains: Type.Array(DomainProof),
});
export type DomainProofCheck = Static<typeof DomainProofCheck>;
