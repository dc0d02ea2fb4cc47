import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * HOTP (RFC 4226) and TOTP (RFC 6238) with HMAC-SHA-1, the variant every authenticator app reads
 * from an otpauth:// URI. Written here on node:crypto so that the rules are in plain sight.
 */
export const PERIOD_SECONDS = 30;
export const DIGITS = 6;
/** Steps accepted either side of now: a phone clock a little off still signs in. */
export const WINDOW = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, as otpauth:// secrets are written. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=-]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not a base32 character: ${char}`);
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 §5.3: HMAC over the 8-byte counter, dynamic truncation, the low `digits` decimal digits. */
export function hotp(key: Uint8Array, counter: number, digits = DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The RFC 6238 time step of a moment: whole periods since the Unix epoch. */
export const timeStep = (nowMs: number, period = PERIOD_SECONDS) => Math.floor(nowMs / 1000 / period);

export const totp = (key: Uint8Array, nowMs: number, digits = DIGITS, period = PERIOD_SECONDS) =>
  hotp(key, timeStep(nowMs, period), digits);

/**
 * The step a code is valid for, within ±WINDOW of now and newer than `afterStep` (a code already
 * used, or an older one, is refused); null when none matches. Compared in constant time.
 */
export function matchTotp(key: Uint8Array, code: string, nowMs: number, afterStep = 0): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const now = timeStep(nowMs);
  let matched: number | null = null;
  for (let step = now - WINDOW; step <= now + WINDOW; step++) {
    const same = timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code));
    if (same && step > afterStep && matched === null) matched = step;
  }
  return matched;
}

/** 160 random bits, the key length RFC 4226 recommends for HMAC-SHA-1. */
export const newTotpKey = () => randomBytes(20);

/** The URI authenticator apps read from the QR code (Key Uri Format): defaults spelled out. */
export function otpauthUri(issuer: string, account: string, secretBase32: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: secretBase32,
    issuer,
    algorithm: 'SHA1',
    digits: String(DIGITS),
    period: String(PERIOD_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
