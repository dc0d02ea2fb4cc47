import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkedJsonParser } from './chunked-json-parser.ts';

describe('chunkedJsonParser', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    await app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', chunkedJsonParser(scope, 64));
      scope.post('/echo', async (request) => ({ body: request.body }));
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const post = (payload: string | Buffer | Readable, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json', ...headers }, payload });

  it('parses a body whose characters are cut between chunks', async () => {
    const text = Buffer.from('{"uri":"/caf\u00e9/\u6f22","n":1}');
    // Cut inside the two-byte é and inside the three-byte 漢.
    const chunks = [text.subarray(0, 13), text.subarray(13, 17), text.subarray(17)];
    const answer = await post(Readable.from(chunks), { 'content-length': String(text.length) });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ body: { uri: '/caf\u00e9/\u6f22', n: 1 } });
  });

  it('reads each body on its own: a shorter body after a longer one leaves nothing of it behind', async () => {
    const inChunks = (text: string) => {
      const bytes = Buffer.from(text);
      return Readable.from([bytes.subarray(0, 5), bytes.subarray(5)]);
    };
    const long = await post(inChunks('{"uri":"/a-longer-path","n":12345}'));
    expect(long.json()).toEqual({ body: { uri: '/a-longer-path', n: 12345 } });
    const short = await post(inChunks('{"uri":"/b"}'));
    expect(short.statusCode).toBe(200);
    expect(short.json()).toEqual({ body: { uri: '/b' } });
  });

  it('refuses what Fastify refuses, with its errors', async () => {
    const refusal = async (payload: string | Readable, headers?: Record<string, string>) => {
      const answer = await post(payload, headers);
      return { status: answer.statusCode, code: answer.json<{ code: string }>().code };
    };
    expect(await refusal('{"a":')).toEqual({ status: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
    expect(await refusal('')).toEqual({ status: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' });
    expect(await refusal('{"__proto__":{"admin":true}}')).toEqual({
      status: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    });
    expect(await refusal(`{"a":"${'x'.repeat(80)}"}`)).toEqual({ status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    // No length announced: counted as it comes.
    const long = Readable.from([Buffer.from('{"a":"'), Buffer.from('x'.repeat(80)), Buffer.from('"}')]);
    expect(await refusal(long)).toEqual({ status: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
  });
});
