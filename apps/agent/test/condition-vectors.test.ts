import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LUA_DIR } from '../src/paths.ts';
import { NGINX_BINARY } from './support/edge.ts';
import { freePort } from './support/ports.ts';

interface RequestLine {
  request_uri: string;
  uri: string | null;
  args: string;
}

const vectors = JSON.parse(readFileSync(join(LUA_DIR, 'test', 'condition-vectors.json'), 'utf8')) as {
  cases: { name: string; request: Partial<RequestLine> }[];
  request_lines: RequestLine[];
};

/** Every $request_uri of the shared cases with the $uri and $args they say nginx derives from it. */
const lines: RequestLine[] = [
  ...vectors.cases
    .filter((vector) => vector.request.request_uri !== undefined)
    .map(({ request }) => ({
      request_uri: request.request_uri ?? '',
      uri: request.uri ?? '',
      args: request.args ?? '',
    })),
  ...vectors.request_lines,
];

/** One raw request line; the status and the body as bytes (one char a byte). */
function ask(port: number, requestUri: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${requestUri} HTTP/1.0\r\nHost: www.example.com\r\n\r\n`, 'latin1');
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body });
    });
  });
}

/**
 * The shared condition cases say what nginx makes of a logged $request_uri ($uri: decoded, slashes
 * merged, dot segments resolved; $args: after the first ?), and the master's rule preview derives
 * them the same way. Here nginx itself answers for every one of them.
 */
describe('the $uri and $args of the shared condition cases, from nginx', () => {
  let dir: string;
  let port: number;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rampart-vectors-'));
    port = await freePort();
    const conf = join(dir, 'nginx.conf');
    await writeFile(
      conf,
      [
        `pid ${join(dir, 'nginx.pid')};`,
        `error_log ${join(dir, 'error.log')} warn;`,
        'events {}',
        'http {',
        '    access_log off;',
        // The query first: it holds no |, the path may.
        `    server { listen 127.0.0.1:${port}; location / { return 200 "$args|$uri"; } }`,
        '}',
        '',
      ].join('\n'),
    );
    const started = spawnSync(NGINX_BINARY, ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')], {
      encoding: 'utf8',
    });
    expect(started.status, started.stderr).toBe(0);
  });
  afterAll(async () => {
    const pid = Number(await readFile(join(dir, 'nginx.pid'), 'utf8').catch(() => '0'));
    if (pid > 0) process.kill(pid, 'SIGQUIT');
    await rm(dir, { recursive: true, force: true });
  });

  it.each(lines.map((line) => [line.request_uri, line] as const))('%s', async (_name, line) => {
    const answer = await ask(port, line.request_uri);
    if (line.uri === null) {
      expect(answer.status).toBe(400);
      return;
    }
    expect(answer.status).toBe(200);
    const split = answer.body.indexOf('|');
    expect(answer.body.slice(0, split)).toBe(line.args);
    // The file holds text as UTF-8; nginx answers bytes.
    expect(answer.body.slice(split + 1)).toBe(Buffer.from(line.uri, 'utf8').toString('latin1'));
  });
});
