import { DNS_CREDENTIAL_FIELDS, type DnsApiCredentials, type DnsProviderName } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import type { SecretBox } from '../../secrets.ts';
import { readConfig } from '../settings/configs.ts';
import { loadSettings } from '../settings/settings.service.ts';
import type { DnsProvider } from './dns-provider.ts';
import { DNS_TTL } from './dns-ttl.ts';
import type { DnsApiRow } from './dnsapis.repository.ts';
import { checkProviderUrl } from './provider-url.ts';
import { dnsProvider, isProviderName } from './providers.ts';

/** Only the fields the provider takes, each one it needs present. */
export function credentialsFor(provider: DnsProviderName, credentials: DnsApiCredentials): DnsApiCredentials {
  const { required, optional } = DNS_CREDENTIAL_FIELDS[provider];
  const accepted: readonly string[] = [...required, ...optional];
  for (const field of required) {
    if (!credentials[field as keyof DnsApiCredentials])
      throw invalidParam(`credentials/${field}`, `is required for ${provider}`);
  }
  const foreign = Object.keys(credentials).find((field) => !accepted.includes(field));
  if (foreign) throw invalidParam(`credentials/${foreign}`, `is not a ${provider} credential`);
  return credentials;
}

/** A provider that writes records with the TTLs of the moment (`global-0-dns-ttl`). */
async function buildProvider(db: Kysely<Database>, provider: DnsProviderName, credentials: DnsApiCredentials) {
  const [settings, ttl] = await Promise.all([loadSettings(db), readConfig(db, DNS_TTL)]);
  // Only PowerDNS takes a URL from the user: it must not lead into the master's own network.
  if (provider === 'powerdns') await checkProviderUrl(credentials.url ?? '', settings.dnsapi_allow_private);
  return dnsProvider(
    provider,
    credentials,
    {
      cloudflare: settings.cloudflare_api_url,
      dnspod: settings.dnspod_api_url,
      alidns: settings.alidns_api_url,
    },
    ttl.value,
  );
}

/** Checks the credentials with the provider (it must list the zones) and returns them sealed for storage. */
export async function verifiedCredentials(
  db: Kysely<Database>,
  secrets: SecretBox,
  provider: DnsProviderName,
  credentials: DnsApiCredentials,
): Promise<string> {
  const accepted = credentialsFor(provider, credentials);
  await (await buildProvider(db, provider, accepted)).listZones();
  return secrets.seal(JSON.stringify(accepted));
}

/** The provider of a stored DNS API, its credentials unsealed only here. */
export async function providerOf(db: Kysely<Database>, secrets: SecretBox, row: DnsApiRow): Promise<DnsProvider> {
  if (!isProviderName(row.provider)) throw new AppError('conflict', `DNS API ${row.id} has an unknown provider`);
  const credentials = JSON.parse(secrets.open(row.credentials)) as DnsApiCredentials;
  return buildProvider(db, row.provider, credentials);
}
