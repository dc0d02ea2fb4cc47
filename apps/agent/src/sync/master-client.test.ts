import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MasterClient, MasterError } from './master-client.ts';

describe('MasterClient', () => {
  let server: Server;
  let client: MasterClient;
  let seen: { headers: Record<string, unknown>; body: string } | null = null;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        seen = { headers: req.headers, body };
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
