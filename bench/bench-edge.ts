// An edge for the benches that count or load one site or a few: the agent's own nginx (the edge
// tests' createEdge) serving the given sites in front of a bench origin (nginx-process.ts).
import type { EdgeProtection, EdgeSite } from '@rampart/contracts';
import { createEdge } from '../apps/agent/test/support/edge.ts';
import type { NginxUnderTest } from './callgrind.ts';
import { edgeNginxFiles, startBenchOrigin } from './nginx-process.ts';

type Origin = EdgeSite['origins'][number];

/**
 * An edge serving `sites(origin)` (given the bench origin as a site's origin) with `protection`,
 * applied as version 1; `server` is its nginx as the instruction counts take it (the HTTP port).
 */
export async function startBenchEdge(sites: (origin: Origin) => EdgeSite[], protection?: EdgeProtection) {
  const origin = await startBenchOrigin();
  const edge = await createEdge({ proveTimeoutMs: 60_000 });
  const close = async () => {
    await edge.close();
    origin.nginx.stop();
  };
  try {
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 1,
        sites: sites({ address: '127.0.0.1', port: origin.port, weight: 1, backup: false }),
        ...(protection ? { protection } : {}),
      }),
    );
    if (!outcome.applied || outcome.errors.length > 0) {
      throw new Error(`edge did not apply: ${outcome.error} ${JSON.stringify(outcome.errors)}`);
    }
    const server: NginxUnderTest = { ...edgeNginxFiles(edge), port: edge.ports.http };
    return { edge, server, close };
  } catch (error) {
    await close();
    throw error;
  }
}
