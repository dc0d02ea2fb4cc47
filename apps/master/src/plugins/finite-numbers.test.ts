import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { envelope } from './envelope.ts';
import { finiteNumbers } from './finite-numbers.ts';

async function app() {
  const server = Fastify();
  await server.register(envelope);
  await server.register(finiteNumbers);
  server.get(
    '/typed',
    { schema: { querystring: { type: 'object', properties: { page: { type: 'number' } } } } },
    async (request) => request.query,
  );
  server.get('/text', async (request) => request.query);
  server.post('/untyped', async (request) => request.body);
  // Checks only `n` in its body: the route's own check stands in for the walk over every value.
  server.post(
    '/own-check',
    {
      schema: { querystring: { type: 'object', properties: { page: { type: 'number' } } } },
      config: {
        nonFiniteBody: (body) => (Number.isFinite((body as { n: number }).n) ? undefined : 'n'),
      },
    },
    async (request) => ({ query: request.query, body: request.body }),
  );
  await server.ready();
  return server;
}

describe('finite numbers', () => {
  it('refuses a query number that Ajv made infinite', async () => {
    const server = await app();
    const answer = await server.inject({ method: 'GET', url: '/typed?page=1e309' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: 'invalid_param', msg: 'querystring/page: must be a finite number' });
    expect((await server.inject({ method: 'GET', url: '/typed?page=2' })).json()).toEqual({ page: 2 });
    await server.close();
  });

  it('refuses an infinite number in a body even on a route without a body schema', async () => {
    const server = await app();
    const answer = await server.inject({
      method: 'POST',
      url: '/untyped',
      headers: { 'content-type': 'application/json' },
      payload: '{"n":1e309}',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ msg: 'body/n: must be a finite number' });
    await server.close();
  });

  it("checks a route's body with its own check, and its query as any other", async () => {
    const server = await app();
    const post = (url: string, payload: string) =>
      server.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
    const refused = await post('/own-check', '{"n":1e309}');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'invalid_param', msg: 'body/n: must be a finite number' });
    // A value the route never reads is its own check's business: here it is let through.
    expect((await post('/own-check', '{"n":1,"unread":1e309}')).statusCode).toBe(200);
    const query = await post('/own-check?page=1e309', '{"n":1}');
    expect(query.json()).toMatchObject({ msg: 'querystring/page: must be a finite number' });
    await server.close();
  });

  it('leaves a bodiless route without a query schema alone: its query stays text', async () => {
    const server = await app();
    expect((await server.inject({ method: 'GET', url: '/text?page=1e309' })).json()).toEqual({ page: '1e309' });
    await server.close();
  });
});
