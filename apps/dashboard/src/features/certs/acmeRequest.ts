import { ACME_STEPS, type AcmeCertBody, type AcmeChallengeType, type Cert } from '@rampart/contracts';
import { domainLines } from '../sites/edgeRules.ts';

/** The request form: domains one per line (or comma separated). */
export interface AcmeValues {
  name?: string;
  domains?: string;
  challenge?: AcmeChallengeType;
  dnsapi_id?: number;
}

/** POST /v1/certs for an ACME certificate: a blank name is left to the master (the first domain). */
export const acmeCertBody = (values: AcmeValues): AcmeCertBody => {
  const name = values.name?.trim();
  const challenge = values.challenge ?? 'http-01';
  return {
    type: 'acme',
    domains: domainLines(values.domains),
    challenge,
    ...(challenge === 'dns-01' && values.dnsapi_id !== undefined && { dnsapi_id: values.dnsapi_id }),
    ...(name && { name }),
  };
};

/** The first wildcard among the lines: HTTP-01 cannot prove one. */
export const wildcardOf = (text: string | undefined): string | undefined =>
  domainLines(text).find((domain) => domain.startsWith('*.'));

/** How far an issuance has come, 0 to 100, by its step. */
export const stepPercent = (progress: string): number => {
  const index = ACME_STEPS.indexOf(progress as (typeof ACME_STEPS)[number]);
  return index < 0 ? 0 : Math.round((index / (ACME_STEPS.length - 1)) * 100);
};

/** Whether a page of certificates has an issuance in flight: the list is polled until none has. */
export const anyIssuing = (certs: readonly Pick<Cert, 'status'>[]): boolean =>
  certs.some((cert) => cert.status === 'issuing');
