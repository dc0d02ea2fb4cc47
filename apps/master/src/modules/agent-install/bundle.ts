import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository the master runs from: the agent and the contracts are bundled from it. */
const ROOT = resolve(import.meta.dirname, '../../../../..');

export interface AgentBundle {
  /** The agent, its contracts and their one dependency, laid out as installed (tar.gz). */
  archive: string;
  /** The Node.js runtime the agent runs on: the master's own. */
  node: string;
  /** `sha256  name` lines for both, as sha256sum -c reads them. */
  sums: string;
}

const sha256 = (file: string) =>
  new Promise<string>((done, fail) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', fail)
      .on('end', () => done(hash.digest('hex')));
  });

function tar(args: string[]) {
  return new Promise<void>((done, fail) => {
    const child = spawn('tar', args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`tar exited with ${code}: ${errors.slice(-500)}`)),
    );
  });
}

/**
 * Builds the agent release bundle under `dir`: apps/agent (source, Lua and the nginx module's source, without tests),
 * packages/contracts linked from node_modules as in the repository, and typebox, so that `node apps/agent/src/main.ts` runs from
 * the install prefix. The paths are fixed: nothing a caller sends reaches tar.
 */
export async function buildAgentBundle(dir: string): Promise<AgentBundle> {
  await mkdir(dir, { recursive: true });
  const archive = join(dir, 'rampart-agent.tar.gz');
  await rm(archive, { force: true });
  await tar([
    '-czf',
    archive,
    '--exclude=*.test.ts',
    '--exclude=apps/agent/src/testing',
    '--exclude=apps/agent/src/render/golden',
    // The node builds its own copy of the fast path's nginx module, for its own nginx.
    '--exclude=apps/agent/nginx/build',
    'apps/agent/package.json',
    'apps/agent/src',
    'apps/agent/lua',
    'apps/agent/nginx',
    'packages/contracts/package.json',
    'packages/contracts/src',
    // The workspace link (../../packages/contracts): Node strips types only outside node_modules.
    'node_modules/@rampart/contracts',
    'node_modules/typebox',
  ]);
  const node = process.execPath;
  const [archiveSum, nodeSum] = await Promise.all([sha256(archive), sha256(node)]);
  return { archive, node, sums: `${archiveSum}  rampart-agent.tar.gz\n${nodeSum}  node\n` };
}

let shared: Promise<AgentBundle> | undefined;

/**
 * The bundle of the code this process runs, built on first use into a directory of the process's
 * own (every master in the process serves the same code); a failed build is tried again next time.
 */
export function agentBundle(): Promise<AgentBundle> {
  shared ??= buildAgentBundle(join(tmpdir(), `rampart-agent-bundle-${process.pid}`)).catch((error: unknown) => {
    shared = undefined;
    throw error;
  });
  return shared;
}
