import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Type } from 'typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOLD_MARGIN_MS, MasterClient, MasterError, type MasterRequest } from './master-client.ts';

describe('MasterClient', () => {
  let server: Server;
  let client: MasterClient;
  let seen: { headers: Record<string, unknown>; body: string; port: number } | null = null;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen = { headers: req.headers, body, port: req.socket.remotePort ?? 0 };
        const url = req.url ?? '';
        const json = (status: number, value: unknown, gzip = false) => {
          const text = Buffer.from(JSON.stringify(value));
          res.writeHead(status, {
            'content-type': 'application/json',
            ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          });
          res.end(gzip ? gzipSync(text) : text);
        };
        if (url === '/ok') return json(200, { code: 0, msg: 'ok', data: { n: 1 } });
        if (url === '/gzip') return json(200, { code: 0, msg: 'ok', data: { n: 2 } }, true);
        if (url === '/refused') return json(401, { code: 'login_required', msg: 'who are you', data: null });
        if (url === '/invalid') return json(400, { code: 'invalid_body', msg: 'bad', data: null });
        if (url === '/down') return json(503, { code: 'unavailable', msg: 'later', data: null });
        if (url === '/dated') {
          // An hour behind this node's clock.
          res.setHeader('date', new Date(Date.now() - 3_600_000).toUTCString());
          return json(200, { code: 0, msg: 'ok', data: { n: 3 } });
        }
        if (url === '/moved') {
          res.writeHead(307, { location: '/gzip' });
          return res.end();
        }
        if (url === '/silent') return;
        if (url === '/html') {
          res.writeHead(502);
          return res.end('<html>');
        }
        return json(200, { code: 0, msg: 'ok', data: { n: 'not a number' } });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new MasterClient(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const schema = Type.Object({ n: Type.Integer() });

  it('unwraps the envelope, sends JSON and headers, accepts gzip', async () => {
    expect(
      await client.call({ method: 'POST', path: '/ok', body: { a: 1 }, headers: { 'node-token': 't' } }, schema),
    ).toEqual({ n: 1 });
    expect(seen?.body).toBe('{"a":1}');
    expect(seen?.headers).toMatchObject({
      'node-token': 't',
      'content-type': 'application/json',
      'accept-encoding': 'gzip',
    });
    expect(await client.call({ method: 'GET', path: '/gzip' }, schema)).toEqual({ n: 2 });
  });

  it('sends a body serialised beforehand as it is, as JSON', async () => {
    const json = Buffer.from('{"seq":1,"access":[],"stream":[]}');
    expect(await client.call({ method: 'POST', path: '/ok', json }, schema)).toEqual({ n: 1 });
    expect(seen?.body).toBe('{"seq":1,"access":[],"stream":[]}');
    expect(seen?.headers).toMatchObject({ 'content-type': 'application/json' });
  });

  it('sends a ready body on a kept-alive connection, and reads its answer as fetch does', async () => {
    const json = Buffer.from('{"seq":2,"access":[],"stream":[]}');
    const post = (path: string) => client.call({ method: 'POST', path, json, headers: { 'node-token': 't' } }, schema);
    expect(await post('/ok')).toEqual({ n: 1 });
    const first = seen;
    expect(first?.body).toBe('{"seq":2,"access":[],"stream":[]}');
    expect(first?.headers).toMatchObject({
      'node-token': 't',
      'content-type': 'application/json',
      'content-length': String(json.length),
      'accept-encoding': 'gzip',
    });
    expect(await post('/gzip')).toEqual({ n: 2 });
    expect(seen?.port).toBe(first?.port);
    expect(await post('/dated')).toEqual({ n: 3 });
    expect(client.clockOffsetSeconds).toBeGreaterThan(3590);
    // A redirect goes to fetch, which follows it with the same body.
    expect(await post('/moved')).toEqual({ n: 2 });
    expect(seen?.body).toBe('{"seq":2,"access":[],"stream":[]}');
    await expect(post('/other')).rejects.toMatchObject({ code: 'bad_answer' });
  });

  it('maps the answers and failures of a ready body as those of any call', async () => {
    const json = Buffer.from('{}');
    const post = (path: string, extra: Partial<MasterRequest> = {}) =>
      client.call({ method: 'POST', path, json, ...extra }, null).catch((e: unknown) => e);
    expect(await post('/refused')).toMatchObject({ code: 'login_required', status: 401, unauthorized: true });
    expect(await post('/invalid')).toMatchObject({ code: 'invalid_body', retryable: false });
    expect(await post('/html')).toMatchObject({ code: 'http_502', retryable: true, gateway: true });
    expect(await post('/silent', { timeoutMs: 300 })).toMatchObject({ name: 'TimeoutError' });
    const stop = new AbortController();
    const aborted = post('/silent', { signal: stop.signal, timeoutMs: 10_000 });
    setTimeout(() => stop.abort(), 50);
    expect(await aborted).toMatchObject({ name: 'AbortError' });
    const nowhere = await new MasterClient('http://127.0.0.1:1')
      .call({ method: 'POST', path: '/', json }, null)
      .catch((e: unknown) => e);
    expect(nowhere).toBeInstanceOf(TypeError);
    expect((nowhere as TypeError).cause).toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('turns error envelopes into MasterError with retry and auth hints', async () => {
    const refused = await client.call({ method: 'GET', path: '/refused' }, null).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MasterError);
    expect(refused).toMatchObject({ code: 'login_required', status: 401, unauthorized: true, retryable: false });
    expect(await client.call({ method: 'GET', path: '/invalid' }, null).catch((e: unknown) => e)).toMatchObject({
      retryable: false,
      unauthorized: false,
    });
    expect(await client.call({ method: 'GET', path: '/down' }, null).catch((e: unknown) => e)).toMatchObject({
      retryable: true,
    });
    expect(await client.call({ method: 'GET', path: '/html' }, null).catch((e: unknown) => e)).toMatchObject({
      code: 'http_502',
      retryable: true,
    });
  });

  it('refuses an answer that does not match the contract', async () => {
    await expect(client.call({ method: 'GET', path: '/other' }, schema)).rejects.toMatchObject({ code: 'bad_answer' });
  });

  it('lets network failures through as they are', async () => {
    const nowhere = new MasterClient('http://127.0.0.1:1');
    await expect(nowhere.call({ method: 'GET', path: '/' }, null)).rejects.toThrow(TypeError);
  });
});

/** A master on 127.0.0.1 that names itself in its answers; `/poll` is held until it is told to answer. */
interface StandIn {
  name: string;
  url: string;
  port: number;
  /** Requests it received, by path. */
  seen: string[];
  /** Requests held open now. */
  held: number;
  /** How it answers `/who` (default: its name). */
  answer: (response: ServerResponse) => void;
  /** Like a killed master: every connection reset, nothing listening. */
  kill: () => Promise<void>;
}

async function startStandIn(name: string, port = 0): Promise<StandIn> {
  const server = createServer((request, response) => {
    standIn.seen.push(request.url ?? '');
    if (request.url === '/poll') {
      standIn.held++;
      request.on('close', () => standIn.held--);
      return;
    }
    standIn.answer(response);
  });
  const standIn: StandIn = {
    name,
    url: '',
    port: 0,
    seen: [],
    held: 0,
    answer: (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 0, msg: 'ok', data: { master: name } }));
    },
    kill: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    },
  };
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  standIn.port = (server.address() as AddressInfo).port;
  standIn.url = `http://127.0.0.1:${standIn.port}`;
  return standIn;
}

describe('MasterClient with several masters', () => {
  const standIns: StandIn[] = [];
  const start = async (name: string, port?: number) => {
    const standIn = await startStandIn(name, port);
    standIns.push(standIn);
    return standIn;
  };
  const who = (client: MasterClient, signal?: AbortSignal) =>
    client.call<{ master: string }>({ method: 'GET', path: '/who', ...(signal && { signal }) }, null);
  afterEach(async () => {
    for (const standIn of standIns.splice(0)) await standIn.kill();
  });

  it('goes on to the next master when the one in use is gone, and stays with the one that answers', async () => {
    const [a, b] = [await start('a'), await start('b')];
    const client = new MasterClient([a.url, b.url]);
    expect(await who(client)).toEqual({ master: 'a' });
    await a.kill();
    expect(await who(client)).toEqual({ master: 'b' });
    expect(client.baseUrl).toBe(b.url);
    expect(await who(client)).toEqual({ master: 'b' });
    expect(b.seen).toEqual(['/who', '/who']);
  });

  it('sends a ready body to the next master when the one in use is gone or silent', async () => {
    const [a, b] = [await start('a'), await start('b')];
    const client = new MasterClient([a.url, b.url]);
    const post = () =>
      client.call<{ master: string }>({ method: 'POST', path: '/who', json: Buffer.from('{}'), timeoutMs: 500 }, null);
    expect(await post()).toEqual({ master: 'a' });
    await a.kill();
    expect(await post()).toEqual({ master: 'b' });
    expect(client.baseUrl).toBe(b.url);
    const c = await start('c');
    client.useMasters([b.url, c.url]);
    b.answer = () => undefined;
    expect(await post()).toEqual({ master: 'c' });
    expect(client.baseUrl).toBe(c.url);
  });

  it('goes round: after the last master, the first again', async () => {
    const a = await start('a');
    const b = await start('b');
    const client = new MasterClient([a.url, b.url]);
    await a.kill();
    expect(await who(client)).toEqual({ master: 'b' });
    await start('a again', a.port);
    await b.kill();
    expect(await who(client)).toEqual({ master: 'a again' });
    expect(client.baseUrl).toBe(a.url);
  });

  it("takes a load balancer's 502, 503 or 504 for a master that is not there, but not the master's own refusal", async () => {
    const [a, b] = [await start('a'), await start('b')];
    const client = new MasterClient([a.url, b.url]);
    for (const status of [502, 503, 504]) {
      a.answer = (response) => {
        response.writeHead(status, { 'content-type': 'text/html' });
        response.end('<html>no healthy upstream</html>');
      };
      client.moveTo(a.url);
      client.useMasters([a.url, b.url]);
      expect(await who(client), String(status)).toEqual({ master: 'b' });
      expect(client.baseUrl).toBe(b.url);
    }
    a.answer = (response) => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ code: 'invalid_param', msg: 'no', data: null }));
    };
    client.moveTo(a.url);
    client.useMasters([a.url, b.url]);
    await expect(who(client)).rejects.toMatchObject({ code: 'invalid_param', status: 400, gateway: false });
    expect(client.baseUrl).toBe(a.url);
    expect(b.seen).toHaveLength(3);
  });

  it('moves a long poll held by a master that is killed to the next master at once', async () => {
    const [a, b] = [await start('a'), await start('b')];
    const client = new MasterClient([a.url, b.url]);
    // Held for 30 s by a master that lives: only the reset can bring the answer before the test's end.
    const poll = client.call<{ master: string }>({ method: 'GET', path: '/poll', holdSeconds: 30 }, null);
    await vi.waitFor(() => expect(a.held).toBe(1));
    b.answer = (response) => response.end(JSON.stringify({ code: 0, msg: 'ok', data: { master: 'b' } }));
    const answered = b.seen.length;
    await a.kill();
    await vi.waitFor(() => expect(b.seen.length).toBeGreaterThan(answered));
    expect(b.seen.at(-1)).toBe('/poll');
    expect(b.held).toBe(1);
    await b.kill();
    await expect(poll).rejects.toThrow();
  });

  it('gives up a long poll that a master holds past its hold without a word, and asks the next', async () => {
    const [a, b] = [await start('a'), await start('b')];
    const client = new MasterClient([a.url, b.url]);
    // /poll is never answered by either: after a's hold and its margin, b is asked.
    const poll = client.call({ method: 'GET', path: '/poll', holdSeconds: 0 }, null).catch((error: unknown) => error);
    await vi.waitFor(() => expect(a.held).toBe(1));
    await vi.waitFor(() => expect(b.seen).toEqual(['/poll']), { timeout: HOLD_MARGIN_MS + 5000 });
    expect(a.held).toBe(0);
    expect(client.baseUrl).toBe(b.url);
    await b.kill();
    expect(await poll).toBeInstanceOf(Error);
  });

  it('gives up a plain call to a master that went silent, and stays with the next one', async () => {
    const [a, b] = [await start('a'), await start('b')];
    const client = new MasterClient([a.url, b.url]);
    // a takes the call and never answers, as a master whose machine froze.
    a.answer = () => undefined;
    expect(await who(client)).toEqual({ master: 'b' });
    expect(a.seen).toEqual(['/who']);
    expect(client.baseUrl).toBe(b.url);
  });

  it('moves calls that fail together on by one master, not one each', async () => {
    const [a, b, c] = [await start('a'), await start('b'), await start('c')];
    const client = new MasterClient([a.url, b.url, c.url]);
    await a.kill();
    const answers = await Promise.all(Array.from({ length: 8 }, () => who(client)));
    expect(answers.map((answer) => answer.master)).toEqual(Array(8).fill('b'));
    expect(client.baseUrl).toBe(b.url);
    expect(c.seen).toEqual([]);
  });

  it('throws the last failure when no master answers, and stops where it is when the caller aborts', async () => {
    const [a, b] = [await start('a'), await start('b')];
    const client = new MasterClient([a.url, b.url]);
    const stop = new AbortController();
    const poll = client.call({ method: 'GET', path: '/poll', holdSeconds: 30, signal: stop.signal }, null);
    await vi.waitFor(() => expect(a.held).toBe(1));
    stop.abort();
    await expect(poll).rejects.toMatchObject({ name: 'AbortError' });
    expect(b.seen).toEqual([]);
    expect(client.baseUrl).toBe(a.url);

    await a.kill();
    await b.kill();
    await expect(who(client)).rejects.toThrow(TypeError);
  });

  it('keeps the master in use when a new list names it, and otherwise starts at the new list’s first', () => {
    const client = new MasterClient(['https://a.test/', 'https://b.test']);
    expect(client.masters).toEqual(['https://a.test', 'https://b.test']);
    expect(client.useMasters(['https://a.test', 'https://b.test/'])).toBe(false);
    expect(client.useMasters(['https://c.test', 'https://a.test'])).toBe(true);
    expect(client.baseUrl).toBe('https://a.test');
    expect(client.useMasters(['https://d.test', 'https://e.test'])).toBe(true);
    expect(client.baseUrl).toBe('https://d.test');
    client.moveTo('https://f.test:8443/');
    expect(client.masters).toEqual(['https://f.test:8443']);
  });
});
