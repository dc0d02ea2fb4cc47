import type { Cert } from '@rampart/contracts';
import { saveSetting } from '../modules/settings/settings.service.ts';
import type { Pebble } from './pebble.ts';
import type { TestApp } from './test-app.ts';

/** Points the master at pebble and at a loopback DNS server for its own look-ups. */
export async function useAcmeTestServers(test: TestApp, pebble: Pebble, dnsResolver: string) {
  const { db } = test.database;
  await saveSetting(db, 'acme_directory_url', pebble.directoryUrl);
  await saveSetting(db, 'dns_resolver', dnsResolver);
  await saveSetting(db, 'dnsapi_allow_private', true);
  await saveSetting(db, 'acme_dns_wait_seconds', 20);
  await saveSetting(db, 'acme_edge_wait_seconds', 10);
}

/** Polls GET /v1/certs/{id} until the issuance settles (issued or failed) and returns the certificate. */
export async function settledCert(test: TestApp, token: string, id: number, timeoutMs = 45_000): Promise<Cert> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const cert = (await test.call('GET', `/v1/certs/${id}`, { token })).body.data as Cert;
    if (cert.status !== 'issuing') return cert;
    if (Date.now() > deadline) throw new Error(`certificate ${id} still issuing at step ${cert.progress}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
