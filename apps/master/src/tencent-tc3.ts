import { createHash, createHmac } from 'node:crypto';

/** The body type every signed Tencent Cloud API 3.0 call sends (and signs). */
export const TC3_CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/**
 * Tencent Cloud's TC3-HMAC-SHA256 signature of one JSON POST to `host` for `service` (`dnspod`,
 * `sms`): the Authorization header's value. Used by the DNSPod client and the Tencent SMS sender.
 */
export function tc3Authorization(
  service: string,
  key: { id: string; secret: string },
  host: string,
  payload: string,
  timestamp: number,
): string {
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${TC3_CONTENT_TYPE}\nhost:${host}\n`,
    signedHeaders,
    sha256(payload),
  ].join('\n');
  const scope = `${date}/${service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(timestamp), scope, sha256(canonicalRequest)].join('\n');
  const signing = hmac(hmac(hmac(`TC3${key.secret}`, date), service), 'tc3_request');
  const signature = createHmac('sha256', signing).update(stringToSign).digest('hex');
  return `TC3-HMAC-SHA256 Credential=${key.id}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}
