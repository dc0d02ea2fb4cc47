// What protection costs a proxied request in nginx's own code, counted under callgrind
// (bench/callgrind.ts): the site of bench/protection.ts with its realistic rules (an ACL of 1,000
// CIDR ranges and 5 CC rules the request passes) against the same site without protection, on one
// edge. Without protection the site takes the fast path (the edge's nginx module); with it, the Lua
// router, and the module's peer for its one origin. The last line takes the module's peer out of a
// copy of the config (the Lua balancer, as before it), for what that part saves.
// Usage: node bench/protection-instructions.ts   (BENCH_REQUESTS: requests counted, default 4000)
import { makeSite } from '../apps/agent/src/testing/snapshots.ts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import { instructionsPerRequest, type NginxUnderTest, thousands } from './callgrind.ts';
import { edgeNginxFiles, startBenchOrigin } from './nginx-process.ts';
import { blocklistAcl, protection, realisticRules } from './protection-rules.ts';

const { port: originPort, nginx: origin } = await startBenchOrigin();
const edge = await createEdge({ proveTimeoutMs: 60_000 });
try {
  const site = (id: number, domain: string, guarded: boolean) =>
    makeSite({
      id,
      domains: [domain],
      origins: [{ address: '127.0.0.1', port: originPort, weight: 1, backup: false }],
      ...(guarded ? { protection: protection({ rule_group_id: 1 }) } : {}),
    });
  const outcome = await edge.applier.apply(
    edge.snapshot({
      version: 1,
      sites: [site(1, 'off.test', false), site(2, 'on.test', true)],
      protection: { rule_groups: [realisticRules(1)], acls: [blocklistAcl(2)], bans: [], unbans: [] },
    }),
  );
  if (!outcome.applied || outcome.errors.length > 0) throw new Error(`edge did not apply: ${outcome.error}`);
  const server: NginxUnderTest = { ...edgeNginxFiles(edge), port: edge.ports.http };
  const load = (host: string) => ({ host, paths: ['/page?id=1'], headers: { 'user-agent': 'Mozilla/5.0 bench' } });
  const off = (await instructionsPerRequest(server, load('off.test'))).perRequest;
  const on = (await instructionsPerRequest(server, load('on.test'))).perRequest;
  const luaPeer = (
    await instructionsPerRequest(server, load('on.test'), {
      edit: (conf) => conf.replace(/\n\s*rampart_fast_peer;/, ''),
    })
  ).perRequest;
  console.log(`date: ${new Date().toISOString()}  callgrind, user-space instructions of the nginx process a request`);
  console.log(`protection off (the fast path): ${thousands(off)}`);
  console.log(`protection on (ACL of 1,000 CIDRs + 5 CC rules): ${thousands(on)} (${(on / off).toFixed(2)}× off)`);
  console.log(
    `protection on, the Lua balancer instead of the module's peer: ${thousands(luaPeer)} (${(luaPeer / off).toFixed(2)}× off)`,
  );
} finally {
  await edge.close();
  origin.stop();
}
