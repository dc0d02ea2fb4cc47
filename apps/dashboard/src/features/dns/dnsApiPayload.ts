import type { CreateDnsApiBody, DnsApiCredentials, DnsProviderName, UpdateDnsApiBody } from '@rampart/contracts';

/** The DNS API form: credentials are write-only, so they start blank when renaming. */
export interface DnsApiValues {
  name?: string;
  provider?: DnsProviderName;
  url?: string;
  api_key?: string;
  server_id?: string;
  api_token?: string;
  secret_id?: string;
  secret_key?: string;
  access_key_id?: string;
  access_key_secret?: string;
}

/** The field whose typing means "replace the stored credentials". */
export const SECRET_FIELD = {
  powerdns: 'api_key',
  cloudflare: 'api_token',
  dnspod: 'secret_key',
  alidns: 'access_key_secret',
} as const;

const trimmed = (value: string | undefined) => (value ?? '').trim();

const credentialsOf = (provider: DnsProviderName, values: DnsApiValues): DnsApiCredentials => {
  if (provider === 'cloudflare') return { api_token: trimmed(values.api_token) };
  if (provider === 'dnspod') return { secret_id: trimmed(values.secret_id), secret_key: trimmed(values.secret_key) };
  if (provider === 'alidns') {
    return { access_key_id: trimmed(values.access_key_id), access_key_secret: trimmed(values.access_key_secret) };
  }
  const serverId = trimmed(values.server_id);
  return { url: trimmed(values.url), api_key: trimmed(values.api_key), ...(serverId && { server_id: serverId }) };
};

/** POST /v1/dnsapis: only the chosen provider's fields; a blank PowerDNS server id is left to the master. */
export const createDnsApiBody = (values: DnsApiValues): CreateDnsApiBody => {
  const provider = values.provider ?? 'powerdns';
  return { name: trimmed(values.name), provider, credentials: credentialsOf(provider, values) };
};

/** PUT /v1/dnsapis/{id}: the name, and new credentials only when the provider's secret was typed. */
export const updateDnsApiBody = (values: DnsApiValues, provider: DnsProviderName = 'powerdns'): UpdateDnsApiBody => ({
  name: trimmed(values.name),
  ...(trimmed(values[SECRET_FIELD[provider]]) && { credentials: credentialsOf(provider, values) }),
});
