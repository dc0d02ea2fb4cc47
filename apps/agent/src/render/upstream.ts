import type { Balance, Origin } from '@rampart/contracts';
import { integer, quote, RenderRefusal } from './quote.ts';

const IPV6 = /^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$/;

/** `host:port` for a `server` line; IPv6 addresses go in brackets. */
export function originEndpoint(origin: Origin, field: string): string {
  const port = integer(origin.port, `${field}.port`, 1, 65535);
  const address = origin.address;
  if (typeof address !== 'string') throw new RenderRefusal(`${field}.address`, 'must be a string');
  const host = IPV6.test(address) ? `[${address}]` : address;
  return `${host}:${port}`;
}

/**
 * An upstream block. Passive failover: an origin that fails `max_fails` times is taken out for
 * `fail_timeout`, and the request is retried on the next origin (proxy_next_upstream at the caller).
 */
export function renderUpstream(name: string, origins: Origin[], balance: Balance, context: 'http' | 'stream'): string {
  const lines = [`upstream ${name} {`];
  if (balance === 'ip_hash') lines.push(context === 'http' ? '    ip_hash;' : '    hash $remote_addr consistent;');
  else if (balance !== 'round_robin' && balance !== 'weighted') throw new RenderRefusal('balance', 'unknown balancing');
  origins.forEach((origin, index) => {
    const field = `origins[${index}]`;
    const weight = balance === 'round_robin' ? '1' : integer(origin.weight, `${field}.weight`, 1, 100);
    const backup = origin.backup === true ? ' backup' : '';
    lines.push(
      `    server ${quote(originEndpoint(origin, field), `${field}.address`, 300)} weight=${weight} max_fails=3 fail_timeout=10s${backup};`,
    );
  });
  if (context === 'http') lines.push('    keepalive 16;');
  lines.push('}');
  return lines.join('\n');
}
