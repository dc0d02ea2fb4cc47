// What a proxied request (cache off, no protection) costs nginx in its own code, counted under
// callgrind (bench/callgrind.ts): plain nginx, the edge with a site's defaults, and the edge with
// each default feature taken out of a copy of its config, one at a time, so the cost of each is
// shown rather than guessed. The copies are for counting only: a feature taken out here is one a
// site needs (the JSON access log carries the counters and the bandwidth the agent reports).
// Usage: node bench/edge-proxy-instructions.ts   (BENCH_REQUESTS: requests counted, default 4000)
//   BENCH_OTHER_EDGE=conf:prefix:port also counts another running edge (an older build, say).
import { MODULE_ACCESS_LOG } from '../apps/agent/test/support/edge.ts';
import { instructionsPerRequest, thousands } from './callgrind.ts';
import { PROXY_HOST, startProxyBenchServers } from './edge-proxy.ts';

/** One copy of the edge's config with something taken out or changed. */
interface Variant {
  label: string;
  edit: (conf: string, originPort: number) => string;
}

const replaceOnce = (conf: string, pattern: RegExp, replacement: string): string => {
  if (!pattern.test(conf)) throw new Error(`the edge's config has no ${pattern}`);
  return conf.replace(pattern, replacement);
};

const ROUTER = /rewrite_by_lua_block \{ rampart_router\.route\(\) \}/;
const BALANCED_UPSTREAM = /upstream rampart_origin_http \{[\s\S]*?keepalive \d+;\s*\}/;
const FORWARDING =
  /\n\s*proxy_set_header (X-Real-IP|X-Forwarded-For|X-Forwarded-Proto|Accept-Encoding|Upgrade) [^;]+;/g;

const withoutLog = (conf: string) => replaceOnce(conf, MODULE_ACCESS_LOG, 'access_log off;');
const withoutRouter = (conf: string) => replaceOnce(conf, ROUTER, 'set $rampart_site_id "1";');
const staticUpstream = (conf: string, originPort: number) =>
  replaceOnce(
    conf,
    BALANCED_UPSTREAM,
    `upstream rampart_origin_http { server 127.0.0.1:${originPort}; keepalive 64; }`,
  );

/** The edge as it was before its nginx module: every request through the Lua router and balancer. */
const withoutFastPath = (conf: string) =>
  replaceOnce(replaceOnce(conf, /\n\s*rampart_route;/, ''), /\n\s*rampart_fast_peer;/, '');

export const PROXY_VARIANTS: readonly Variant[] = [
  { label: 'the edge, a site with its defaults', edit: (conf) => conf },
  { label: 'without the fast path module (the Lua router and balancer on every request)', edit: withoutFastPath },
  { label: 'without the access log (counters and bandwidth)', edit: withoutLog },
  {
    label: "the same JSON line written by nginx's log module (log_format rampart_access)",
    edit: (conf) => replaceOnce(conf, MODULE_ACCESS_LOG, 'access_log $2 rampart_access $3;'),
  },
  {
    label: "the access log in nginx's combined format instead of JSON",
    edit: (conf) => replaceOnce(conf, MODULE_ACCESS_LOG, 'access_log $2 combined $3;'),
  },
  { label: 'without the Lua router (the site id set in the config)', edit: withoutRouter },
  { label: 'without the Lua balancer (the origin in an upstream block)', edit: staticUpstream },
  {
    label: 'without the router and the balancer (no Lua on the request)',
    edit: (conf, port) => staticUpstream(withoutRouter(conf), port),
  },
  {
    label: 'without the forwarding headers (X-Real-IP, X-Forwarded-*, Accept-Encoding, Upgrade)',
    edit: (conf) => conf.replace(FORWARDING, ''),
  },
  { label: 'without gzip', edit: (conf) => replaceOnce(conf, /\n(\s*)gzip on;/, '\n$1gzip off;') },
  {
    label: "with nginx's default request pool (4k, where the edge sets 16k)",
    edit: (conf) => replaceOnce(conf, /request_pool_size 16k;/, 'request_pool_size 4k;'),
  },
];

export interface ProxyInstructionLine {
  label: string;
  perRequest: number;
}

export async function proxyInstructions(): Promise<{ plain: number; lines: ProxyInstructionLine[] }> {
  const servers = await startProxyBenchServers();
  try {
    const load = { host: PROXY_HOST, paths: ['/'] };
    const plain = (await instructionsPerRequest(servers.plain, load)).perRequest;
    const lines: ProxyInstructionLine[] = [];
    for (const variant of PROXY_VARIANTS) {
      const count = await instructionsPerRequest(servers.edge, load, {
        edit: (conf) => variant.edit(conf, servers.originPort),
      });
      lines.push({ label: variant.label, perRequest: count.perRequest });
    }
    const other = process.env.BENCH_OTHER_EDGE?.split(':');
    if (other?.length === 3) {
      const [conf = '', prefix = '', port = ''] = other;
      const count = await instructionsPerRequest({ conf, prefix, port: Number(port) }, load);
      lines.push({ label: `another edge (${conf})`, perRequest: count.perRequest });
    }
    return { plain, lines };
  } finally {
    await servers.close();
  }
}

if (import.meta.main) {
  const { plain, lines } = await proxyInstructions();
  const edge = lines[0]?.perRequest ?? Number.NaN;
  console.log(`date: ${new Date().toISOString()}  callgrind, user-space instructions of the nginx process a request`);
  console.log(`plain nginx proxy: ${thousands(plain)}`);
  for (const line of lines) {
    const difference = edge - line.perRequest;
    const saved =
      line === lines[0] ? '' : `, ${thousands(Math.abs(difference))} ${difference < 0 ? 'more' : 'less'} than the edge`;
    console.log(
      `${line.label}: ${thousands(line.perRequest)} (${(line.perRequest / plain).toFixed(2)}× plain${saved})`,
    );
  }
}
