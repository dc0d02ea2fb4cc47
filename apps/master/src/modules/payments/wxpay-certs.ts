import { type KeyObject, X509Certificate } from 'node:crypto';
import type { WxpayPlatformCert, WxpaySettings } from '@rampart/contracts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { invalidParam } from '../../errors.ts';
import { platformCertificate, readPaymentSettings, rsaPublicKey, WXPAY } from './payment-settings.ts';
import {
  decryptResource,
  signedHeaders,
  type WxpayResponse,
  type WxpayVerifier,
  wxpayRequest,
  wxpaySignatureProblem,
} from './wxpay.ts';
import { listPlatformCerts, type StoredPlatformCert, savePlatformCerts } from './wxpay-certs.repository.ts';

/**
 * WeChat Pay platform certificates (API v3, GET /v3/certificates): downloaded with a request signed
 * by the merchant key, each certificate decrypted with the API v3 key, the answer's signature
 * verified, and kept by serial with its validity. Messages are verified with the certificate their
 * Wechatpay-Serial names; an unknown serial asks WeChat Pay once for the current list (a rotation
 * publishes the new certificate before the old one expires), and the scheduled task
 * `wxpay-certificates` asks every 12 hours so that a rotation needs no operator.
 */

export const WXPAY_CERTIFICATES_PATH = '/v3/certificates';
/** An unknown serial asks WeChat Pay again at most this often, so that forged messages cannot make the master hammer it. */
export const UNKNOWN_SERIAL_REFRESH_GAP_MS = 60_000;
const CLOCK_SKEW_MS = 5 * 60_000;

/** Why the certificates could not be downloaded, naming the setting most likely at fault. */
export class WxpayCertificateError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

interface CertificateEntry {
  serial_no?: unknown;
  effective_time?: unknown;
  expire_time?: unknown;
  encrypt_certificate?: { algorithm?: unknown; nonce?: unknown; associated_data?: unknown; ciphertext?: unknown };
}

interface Candidate {
  serial: string;
  key: KeyObject;
  effectiveAt: number;
  expiresAt: number;
}

const usable = (cert: Candidate, now: number) =>
  cert.effectiveAt - CLOCK_SKEW_MS <= now && now <= cert.expiresAt + CLOCK_SKEW_MS;

const candidateOf = (cert: StoredPlatformCert): Candidate => ({
  serial: cert.serial,
  key: new X509Certificate(cert.certPem).publicKey,
  effectiveAt: cert.effectiveAt,
  expiresAt: cert.expiresAt,
});

/** The certificate given in the settings, if any: trusted beside the downloaded ones. */
function settingsCert(settings: WxpaySettings): (Candidate & { certPem: string }) | null {
  if (settings.platform_cert === '') return null;
  const cert = platformCertificate('platform_cert', settings.platform_cert);
  return {
    serial: cert.serialNumber.toUpperCase(),
    key: cert.publicKey,
    effectiveAt: new Date(cert.validFrom).getTime(),
    expiresAt: new Date(cert.validTo).getTime(),
    certPem: settings.platform_cert,
  };
}

const verifierOf = (candidates: readonly Candidate[], now: number): WxpayVerifier => ({
  keyFor: async (serial) =>
    candidates.find((cert) => cert.serial === serial.toUpperCase() && usable(cert, now))?.key ?? null,
});

const fail = (field: string, message: string) =>
  new WxpayCertificateError(field, `WeChat Pay certificates: ${message}`);

/** Reads one entry of the answer: the decrypted certificate, checked against its serial and validity. */
function certificateOf(settings: WxpaySettings, entry: CertificateEntry, now: number): StoredPlatformCert {
  const serial = typeof entry.serial_no === 'string' ? entry.serial_no.toUpperCase() : '';
  if (!/^[0-9A-F]{1,64}$/.test(serial)) throw fail('platform_cert', 'an entry has no serial_no');
  const effectiveAt = Date.parse(String(entry.effective_time));
  const expiresAt = Date.parse(String(entry.expire_time));
  if (!Number.isFinite(effectiveAt) || !Number.isFinite(expiresAt))
    throw fail('platform_cert', `certificate ${serial} has no effective_time or expire_time`);
  const sealed = entry.encrypt_certificate;
  if (typeof sealed?.ciphertext !== 'string' || typeof sealed.nonce !== 'string')
    throw fail('platform_cert', `certificate ${serial} has no encrypt_certificate`);
  let certPem: string;
  try {
    certPem = decryptResource(settings.api_v3_key, {
      algorithm: String(sealed.algorithm),
      ciphertext: sealed.ciphertext,
      nonce: sealed.nonce,
      associated_data: typeof sealed.associated_data === 'string' ? sealed.associated_data : '',
    });
  } catch {
    throw fail('api_v3_key', `certificate ${serial} does not decrypt with the API v3 key`);
  }
  let cert: X509Certificate;
  try {
    cert = platformCertificate('platform_cert', certPem);
  } catch {
    throw fail('platform_cert', `certificate ${serial} is not an RSA certificate of at least 2048 bits`);
  }
  if (cert.serialNumber.toUpperCase() !== serial)
    throw fail('platform_cert', `the certificate listed as ${serial} has serial ${cert.serialNumber}`);
  return { serial, certPem, effectiveAt, expiresAt, fetchedAt: now };
}

/**
 * GET /v3/certificates: the platform certificates WeChat Pay publishes for the merchant, decrypted,
 * in an answer whose signature verifies with a certificate already trusted or one of those it
 * carries (the first download has nothing else to go by: the API v3 key, which only WeChat Pay and
 * the merchant hold, vouches for them).
 */
export async function downloadWxpayCertificates(
  settings: WxpaySettings,
  trusted: readonly Candidate[],
  now = Date.now(),
): Promise<StoredPlatformCert[]> {
  let response: WxpayResponse;
  try {
    response = await wxpayRequest(settings, 'GET', WXPAY_CERTIFICATES_PATH);
  } catch (error) {
    throw fail('api_url', `the API did not answer (${error instanceof Error ? error.message : 'error'})`);
  }
  let answer: { data?: unknown; code?: unknown; message?: unknown } = {};
  try {
    answer = JSON.parse(response.text) as typeof answer;
  } catch {
    throw fail('api_url', `the answer (HTTP ${response.status}) is not JSON`);
  }
  if (response.status < 200 || response.status >= 300) {
    const refusal = `${String(answer.code ?? `HTTP_${response.status}`)} ${String(answer.message ?? '')}`.trim();
    if (response.status === 401)
      throw fail(
        'merchant_private_key',
        `WeChat Pay refused the request's signature (${refusal.slice(0, 300)}); check the merchant private key and its serial number`,
      );
    throw fail('mchid', `WeChat Pay refused the download (${refusal.slice(0, 300)})`);
  }
  if (!Array.isArray(answer.data) || answer.data.length === 0) throw fail('platform_cert', 'the answer lists none');
  const certs = (answer.data as CertificateEntry[]).map((entry) => certificateOf(settings, entry, now));
  const problem = await wxpaySignatureProblem(
    verifierOf([...trusted, ...certs.map(candidateOf)], now),
    signedHeaders(response.header),
    response.text,
    now,
  );
  if (problem) throw fail('platform_cert', `the answer is not signed by WeChat Pay (${problem})`);
  return certs.filter((cert) => cert.expiresAt >= now);
}

interface MasterState {
  downloads: Map<string, Promise<StoredPlatformCert[]>>;
  /** The last download an unknown serial asked for: later ones within the gap wait for it instead. */
  unknownSerial: { at: number; done: Promise<void> } | null;
}
// Per database, that is per master: downloads in flight and the last one an unknown serial asked for.
const states = new WeakMap<Kysely<Database>, MasterState>();
const stateOf = (db: Kysely<Database>) => {
  let state = states.get(db);
  if (!state) {
    state = { downloads: new Map(), unknownSerial: null };
    states.set(db, state);
  }
  return state;
};

async function trustedCerts(db: Kysely<Database>, settings: WxpaySettings): Promise<Candidate[]> {
  const manual = settingsCert(settings);
  return [...(await listPlatformCerts(db, settings.mchid)).map(candidateOf), ...(manual ? [manual] : [])];
}

/**
 * Downloads the merchant's platform certificates and keeps them (expired ones are dropped); one
 * download at a time per merchant, callers meanwhile share it. Throws WxpayCertificateError.
 */
export function refreshWxpayCertificates(db: Kysely<Database>, settings: WxpaySettings, now = Date.now()) {
  const { downloads } = stateOf(db);
  const key = settings.mchid;
  const running = downloads.get(key);
  if (running) return running;
  const download = (async () => {
    const certs = await downloadWxpayCertificates(settings, await trustedCerts(db, settings), now);
    await savePlatformCerts(db, settings.mchid, certs, now);
    return certs;
  })().finally(() => downloads.delete(key));
  downloads.set(key, download);
  return download;
}

/** Whether the settings verify with platform certificates (not with a platform public key). */
export const usesPlatformCerts = (settings: WxpaySettings) => settings.platform_public_key === '';

/**
 * The keys WeChat Pay's answers and notifications are verified with: the platform public key by its
 * id, or the certificate the serial names. An unknown serial downloads the list (one download a
 * minute at most per master; messages meanwhile wait for that one) and looks again; still unknown,
 * it is refused.
 */
export function wxpayVerifier(
  db: Kysely<Database>,
  settings: WxpaySettings,
  log?: { warn(object: object, message: string): void },
): WxpayVerifier {
  if (!usesPlatformCerts(settings)) {
    const key = rsaPublicKey('platform_public_key', settings.platform_public_key);
    return { keyFor: async (serial) => (serial === settings.platform_public_key_id ? key : null) };
  }
  return {
    async keyFor(serial) {
      const known = await verifierOf(await trustedCerts(db, settings), Date.now()).keyFor(serial);
      if (known) return known;
      const state = stateOf(db);
      let refresh = state.unknownSerial;
      if (!refresh || Date.now() - refresh.at >= UNKNOWN_SERIAL_REFRESH_GAP_MS) {
        const done = refreshWxpayCertificates(db, settings).then(
          () => undefined,
          (error: unknown) =>
            log?.warn({ err: error }, 'WeChat Pay platform certificates could not be downloaded for an unknown serial'),
        );
        refresh = { at: Date.now(), done };
        state.unknownSerial = refresh;
      }
      // Messages arriving together after a rotation share one download.
      await refresh.done;
      return verifierOf(await trustedCerts(db, settings), Date.now()).keyFor(serial);
    },
  };
}

/**
 * Before enabled certificate-mode settings are saved: their certificates are downloaded (with the
 * settings about to be saved), so that a wrong key is refused naming its field and the channel
 * verifies from the first notification. A certificate given by hand lets the save through anyway.
 */
export async function downloadBeforeSaving(db: Kysely<Database>, settings: WxpaySettings) {
  if (!settings.enabled || !usesPlatformCerts(settings)) return;
  try {
    await refreshWxpayCertificates(db, settings);
  } catch (error) {
    if (!(error instanceof WxpayCertificateError)) throw error;
    if (settings.platform_cert === '') throw invalidParam(error.field, error.message);
  }
}

/** The certificates shown in the payment settings: serial and validity, never more. */
export async function wxpayCertificateViews(
  db: Kysely<Database>,
  settings: WxpaySettings,
): Promise<WxpayPlatformCert[]> {
  const downloaded = (await listPlatformCerts(db, settings.mchid)).map(
    (cert): WxpayPlatformCert => ({
      serial: cert.serial,
      effective_at: cert.effectiveAt,
      expires_at: cert.expiresAt,
      fetched_at: cert.fetchedAt,
      source: 'downloaded',
    }),
  );
  let manual: ReturnType<typeof settingsCert> = null;
  try {
    manual = settingsCert(settings);
  } catch {
    manual = null;
  }
  if (!manual || downloaded.some((cert) => cert.serial === manual.serial)) return downloaded;
  return [
    ...downloaded,
    {
      serial: manual.serial,
      effective_at: manual.effectiveAt,
      expires_at: manual.expiresAt,
      fetched_at: null,
      source: 'settings',
    },
  ];
}

/**
 * The scheduled refresh: downloads the certificates while WeChat Pay is enabled in certificate mode.
 * Answers the serials kept, or null when there was nothing to do; a failure throws (the task shows it).
 */
export async function refreshWxpayPlatformCerts(db: Kysely<Database>): Promise<string[] | null> {
  const { value } = await readPaymentSettings(db, WXPAY);
  if (!value.enabled || !usesPlatformCerts(value)) return null;
  return (await refreshWxpayCertificates(db, value)).map((cert) => cert.serial);
}
