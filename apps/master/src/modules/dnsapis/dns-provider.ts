import { isIPv6 } from 'node:net';
import type { DnsTtlSettings } from '@rampart/contracts';
import { AppError } from '../../errors.ts';

/** One A or AAAA record of a line group: the IP and its weight (1..100) among the line's records. */
export interface AddressRecord {
  ip: string;
  weight: number;
}

/** A record as the provider holds it: line null for its default line, weight null where it keeps none. */
export interface ProviderRecord {
  type: string;
  value: string;
  line: string | null;
  ttl: number;
  weight: number | null;
}

export type RecordKind = 'address' | 'cname';

/** A DNS line as the provider lists it: its code in calls and its display name. */
export interface ProviderLine {
  code: string;
  name: string;
}

/**
 * What Rampart needs from a DNS provider: the account's zones, one CNAME record set, TXT values for
 * ACME DNS-01 (added beside and removed without touching values others made), and the A/AAAA record
 * set of one name on one DNS line (line groups).
 */
export interface DnsProvider {
  listZones(): Promise<string[]>;
  setCname(zone: string, name: string, target: string): Promise<void>;
  addTxt(zone: string, name: string, values: readonly string[]): Promise<void>;
  removeTxt(zone: string, name: string, values: readonly string[]): Promise<void>;
  /**
   * Replaces the A and AAAA records of `name` on one line (its code as the provider names it; null:
   * the provider's default line) with `records`; an empty list removes them. Other lines and types
   * stay untouched, and records already as wanted are not rewritten.
   */
  setAddresses(zone: string, name: string, line: string | null, records: readonly AddressRecord[]): Promise<void>;
  /** The lines the provider offers for the zone, its default line left out (none where it has only that). */
  listLines(zone: string): Promise<ProviderLine[]>;
  /** Every record of `name` on every line, as the provider holds them (the drift check reads them). */
  listRecords(zone: string, name: string): Promise<ProviderRecord[]>;
  /** The TTL this provider writes for address records or CNAMEs in the zone: the setting, raised to its minimum. */
  ttlAt(zone: string, kind: RecordKind): Promise<number>;
}

/** The configured TTL of one kind of record, raised to a provider's minimum. */
export const ttlOf = (ttl: DnsTtlSettings, kind: RecordKind, minimum = 1) =>
  Math.max(minimum, kind === 'address' ? ttl.address_ttl : ttl.cname_ttl);

export const addressType = (ip: string) => (isIPv6(ip) ? 'AAAA' : 'A');

/** Providers without lines (PowerDNS, Cloudflare) answer every query from their one record set. */
export function onlyDefaultLine(provider: string, line: string | null) {
  if (line !== null) throw new AppError('conflict', `${provider} has only the default line, not ${line}`);
}

/** One call to a provider's API: a network failure or a refused key becomes a readable conflict. */
export async function providerFetch(
  url: string,
  init: RequestInit,
  detailOf: (status: number, body: unknown) => string,
  /** For providers that answer a wrong key with another status than 401 or 403 (AliDNS: 400 and 404). */
  refusesKey: (status: number, body: unknown) => boolean = () => false,
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new AppError('conflict', `the DNS API did not answer: ${error instanceof Error ? error.message : 'error'}`);
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    body = null;
  }
  if (response.status === 401 || response.status === 403 || (!response.ok && refusesKey(response.status, body))) {
    throw new AppError('conflict', 'the DNS API refused the API key');
  }
  if (!response.ok) {
    const detail = detailOf(response.status, body);
    throw new AppError(
      'conflict',
      `the DNS API answered ${response.status}${detail ? `: ${detail.slice(0, 200)}` : ''}`,
    );
  }
  return { status: response.status, body };
}

export const fqdn = (name: string) => (name.endsWith('.') ? name : `${name}.`);
export const bare = (name: string) => name.replace(/\.$/, '').toLowerCase();
/** TXT values travel quoted (RFC 1035 character strings) where the provider wants zone-file syntax. */
export const quoted = (value: string) => `"${value}"`;
export const unquoted = (content: string) => content.replace(/^"|"$/g, '');
