// What protection costs a proxied request in nginx's own code, counted under callgrind
// (bench/callgrind.ts): the site of bench/protection.ts with its realistic rules (an ACL of 1,000
// CIDR ranges and 5 CC rules the request passes) against the same site without protection, on one
// edge. Both take the fast path (the edge's nginx module): with protection, the module runs the
// site's protection program (ngx_http_rampart_protect.c) and enters no Lua for a request that
// passes. The last line takes the module's router out of a copy of the config, so that the Lua
// router serves the protected site, and the Lua balancer its origin (the module's peer follows its
// router: without `rampart_route` it cannot tell the site's id), as an edge without the module does.
// Usage: node bench/protection-instructions.ts   (BENCH_REQUESTS: requests counted, default 4000)
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { startBenchEdge } from './bench-edge.ts';
import { instructionsPerRequest, type RequestLoad, thousands } from './callgrind.ts';
import { blocklistAcl, protection, realisticRules } from './protection-rules.ts';

/** A request of bench/protection.ts to `host`: off.test (no protection) or on.test (its rules). */
export const protectionLoad = (host: 'off.test' | 'on.test'): RequestLoad => ({
  host,
  paths: ['/page?id=1'],
  headers: { 'user-agent': 'Mozilla/5.0 bench' },
});

/** An edge serving off.test and on.test (bench/protection.ts's sites) in front of a bench origin. */
export const startProtectionEdge = () =>
  startBenchEdge(
    (origin) => [
      makeSite({ id: 1, domains: ['off.test'], origins: [origin] }),
      makeSite({ id: 2, domains: ['on.test'], origins: [origin], protection: protection({ rule_group_id: 1 }) }),
    ],
    { rule_groups: [realisticRules(1)], acls: [blocklistAcl(2)], bans: [], unbans: [] },
  );

if (import.meta.main) {
  const { server, close } = await startProtectionEdge();
  try {
    const off = (await instructionsPerRequest(server, protectionLoad('off.test'))).perRequest;
    const on = (await instructionsPerRequest(server, protectionLoad('on.test'))).perRequest;
    const luaRouter = (
      await instructionsPerRequest(server, protectionLoad('on.test'), {
        edit: (conf) => {
          const edited = conf.replace(/\n\s*rampart_route;/, '');
          if (edited === conf) throw new Error('the config has no rampart_route to take out');
          return edited;
        },
      })
    ).perRequest;
    console.log(`date: ${new Date().toISOString()}  callgrind, user-space instructions of the nginx process a request`);
    console.log(`protection off (the fast path): ${thousands(off)}`);
    console.log(`protection on (ACL of 1,000 CIDRs + 5 CC rules): ${thousands(on)} (${(on / off).toFixed(2)}× off)`);
    console.log(
      `protection on, the Lua router and balancer instead of the module: ${thousands(luaRouter)} (${(luaRouter / off).toFixed(2)}× off)`,
    );
  } finally {
    await close();
  }
}
