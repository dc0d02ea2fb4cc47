import { createHash, createHmac } from 'node:crypto';
import type { SeenRequest } from './fake-http.ts';

/**
 * Checks a TC3-HMAC-SHA256 signature for one Tencent Cloud service (`dnspod`, `sms`) the way Tencent
 * Cloud's documentation spells it out, step by step (written apart from the master's signer on
 * purpose): Tencent's error code, or null when it holds.
 */
export function tc3SignatureProblem(
  service: string,
  request: SeenRequest,
  secrets: Record<string, string>,
): string | null {
  const authorization = String(request.headers.authorization ?? '');
  const parts = new RegExp(
    `^TC3-HMAC-SHA256 Credential=([^/]+)/(\\d{4}-\\d{2}-\\d{2})/${service}/tc3_request, SignedHeaders=([a-z;-]+), Signature=([0-9a-f]{64})$`,
  ).exec(authorization);
  if (!parts) return 'AuthFailure.InvalidAuthorization';
  const [, secretId = '', date = '', signedHeaders = '', signature] = parts;
  const secretKey = secrets[secretId];
  if (!secretKey) return 'AuthFailure.SecretIdNotFound';
  const timestamp = Number(request.headers['x-tc-timestamp']);
  if (!(Math.abs(Date.now() / 1000 - timestamp) < 300)) return 'AuthFailure.SignatureExpire';
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date) return 'AuthFailure.InvalidAuthorization';
  if (!signedHeaders.split(';').includes('host')) return 'AuthFailure.InvalidAuthorization';
  const canonicalHeaders = signedHeaders
    .split(';')
    .map((name) => `${name}:${String(request.headers[name] ?? '').toLowerCase()}\n`)
    .join('');
  const hashedPayload = createHash('sha256').update(request.body).digest('hex');
  const canonicalRequest = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${hashedPayload}`;
  const credentialScope = `${date}/${service}/tc3_request`;
  const hashedCanonicalRequest = createHash('sha256').update(canonicalRequest).digest('hex');
  const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${credentialScope}\n${hashedCanonicalRequest}`;
  const secretDate = createHmac('sha256', `TC3${secretKey}`).update(date).digest();
  const secretService = createHmac('sha256', secretDate).update(service).digest();
  const secretSigning = createHmac('sha256', secretService).update('tc3_request').digest();
  const expected = createHmac('sha256', secretSigning).update(stringToSign).digest('hex');
  return expected === signature ? null : 'AuthFailure.SignatureFailure';
}
