/** Proofs of owning a domain (migration 2026-11-28T1900-domain-proofs). */
export interface DomainProofsTable {
  user_id: number;
  /** As on the site: `*.example.com` for a wildcard (its record sits on `_rampart-challenge.example.com`). */
  domain: string;
  token: string;
  state: 'pending' | 'proved';
  /** How it was proved: txt, cname, live (on the edges before proof was required); '' while pending. */
  method: '' | 'txt' | 'cname' | 'live';
  created_at: number;
  proved_at: number | null;
  last_checked_at: number | null;
  /** Why the last check did not prove it; '' when none. */
  last_error: string;
}

export interface DomainProofTables {
  domain_proofs: DomainProofsTable;
}
