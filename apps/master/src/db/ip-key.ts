import { isIPv4, isIPv6 } from 'node:net';

const BITS = 128n;
const MAX = (1n << BITS) - 1n;
const V4_MAPPED = 0xffffn << 32n;

const v4Value = (text: string) => text.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);

function v6Value(text: string): bigint {
  let address = text.split('%')[0] ?? '';
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two groups.
  const tail = address.match(/(\d+\.\d+\.\d+\.\d+)$/)?.[1];
  if (tail) {
    const value = v4Value(tail);
    address = `${address.slice(0, -tail.length)}${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

/** An address as a number in the IPv6 space (IPv4 mapped into ::ffff:0:0/96), or null if it is none. */
function ipValue(text: string): bigint | null {
  if (isIPv4(text)) return V4_MAPPED | v4Value(text);
  if (isIPv6(text)) return v6Value(text);
  return null;
}

const hex = (value: bigint) => value.toString(16).padStart(32, '0');

/**
 * The address as 32 lowercase hex digits: keys sort like the addresses, so a CIDR range is a range
 * of keys. Null for text that is no address.
 */
export const ipKey = (text: string): string | null => {
  const value = ipValue(text);
  return value === null ? null : hex(value);
};

/** The first and last key of an address or CIDR range (`203.0.113.0/24`, `2001:db8::/32`); null if malformed. */
export function cidrKeyRange(text: string): { first: string; last: string } | null {
  const [address = '', length, extra] = text.split('/');
  if (extra !== undefined) return null;
  const value = ipValue(address);
  if (value === null) return null;
  const bits = isIPv4(address) ? 32 : 128;
  if (length !== undefined && !/^[0-9]{1,3}$/.test(length)) return null;
  const prefix = length === undefined ? bits : Number(length);
  if (prefix > bits) return null;
  const hostBits = BigInt(bits - prefix);
  const hostMask = (1n << hostBits) - 1n;
  const first = value & (MAX ^ hostMask);
  return { first: hex(first), last: hex(first | hostMask) };
}
