import type { CreateDnsApiBody, UpdateDnsApiBody } from '@rampart/contracts';

/** The DNS API form: credentials are write-only, so they start blank when renaming. */
export interface DnsApiValues {
  name?: string;
  url?: string;
  api_key?: string;
  server_id?: string;
}

const credentialsOf = (values: DnsApiValues) => {
  const serverId = values.server_id?.trim();
  return {
    url: (values.url ?? '').trim(),
    api_key: (values.api_key ?? '').trim(),
    ...(serverId && { server_id: serverId }),
  };
};

/** POST /v1/dnsapis: a PowerDNS account; a blank server id is left to the master's default. */
export const createDnsApiBody = (values: DnsApiValues): CreateDnsApiBody => ({
  name: (values.name ?? '').trim(),
  provider: 'powerdns',
  credentials: credentialsOf(values),
});

/** PUT /v1/dnsapis/{id}: the name, and new credentials only when an API key was typed. */
export const updateDnsApiBody = (values: DnsApiValues): UpdateDnsApiBody => ({
  name: (values.name ?? '').trim(),
  ...(values.api_key?.trim() && { credentials: credentialsOf(values) }),
});
