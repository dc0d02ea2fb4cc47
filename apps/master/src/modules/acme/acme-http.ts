import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import { axios as acmeAxios } from 'acme-client';

interface AcmeSettings {
  retryMaxAttempts: number;
  retryDefaultDelay: number;
}

let trustedCaFile: string | undefined;

/**
 * acme-client speaks through one shared axios instance, so its HTTP settings are process-wide:
 * a timeout, fewer retries than its default (a dead server fails in seconds, not minutes), and
 * for a private ACME CA (RAMPART_ACME_CA_FILE) that CA trusted beside the public roots. TLS
 * verification stays on.
 */
export function configureAcmeHttp(caFile: string | undefined) {
  acmeAxios.defaults.timeout = 30_000;
  // acme-client keeps its retry settings beside axios's own defaults; its types do not list them.
  const settings = (acmeAxios.defaults as { acmeSettings?: AcmeSettings }).acmeSettings;
  if (settings) Object.assign(settings, { retryMaxAttempts: 3, retryDefaultDelay: 2 });
  if (caFile === trustedCaFile) return;
  trustedCaFile = caFile;
  acmeAxios.defaults.httpsAgent = caFile
    ? new Agent({ ca: [...rootCertificates, readFileSync(caFile, 'utf8')], keepAlive: true })
    : undefined;
}
