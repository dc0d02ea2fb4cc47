import type { Site } from '@rampart/contracts';

/** The site's domains still waiting for proof while the operator requires it (none otherwise). */
export const waitingDomains = (site: Pick<Site, 'domain_proof_required' | 'domain_proofs'>): string[] =>
  site.domain_proof_required
    ? (site.domain_proofs ?? []).filter((proof) => proof.state === 'pending').map((proof) => proof.domain)
    : [];
