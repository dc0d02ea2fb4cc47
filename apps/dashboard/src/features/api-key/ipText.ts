const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  const last = groups.at(-1) ?? '';
  // An embedded IPv4 tail (::ffff:192.0.2.1) counts as two groups.
  const tailIsV4 = last.includes('.');
  if (tailIsV4 && !IPV4.test(last)) return false;
  const hex = tailIsV4 ? groups.slice(0, -1) : groups;
  if (!hex.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return false;
  const count = hex.length + (tailIsV4 ? 2 : 0);
  return halves.length === 2 ? count < 8 : count === 8;
}

/** An IPv4 or IPv6 address, optionally with a prefix length in range: what the master accepts in an allow list. */
export function isIpOrCidr(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  if (rest.length > 0) return false;
  const family = IPV4.test(address) ? 4 : isIpv6(address) ? 6 : 0;
  if (family === 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}
