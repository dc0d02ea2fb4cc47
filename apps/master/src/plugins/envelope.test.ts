import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { AppError, invalidParam } from '../errors.ts';
import { envelope } from './envelope.ts';

async function appWithErrors() {
  const app = Fastify();
  await app.register(envelope);
  app.get('/short', async () => {
    throw new AppError('balance_insufficient', 'the balance (1.00) does not cover 3.50; recharge 2.50 more', {
      balance: '1.00',
      price: '3.50',
      short: '2.50',
    });
  });
  app.get('/plain', async () => {
    throw new AppError('not_found', 'site 9 does not exist');
  });
  app.get('/field', async () => {
    throw invalidParam('name', 'is taken');
  });
  app.post('/typed', { schema: { body: Type.Object({ port: Type.Integer() }) } }, async () => 'ok');
  await app.ready();
  return app;
}

describe('the error envelope', () => {
  it('carries the figures of an error that has them in params', async () => {
    const app = await appWithErrors();
    const response = await app.inject({ method: 'GET', url: '/short' });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      code: 'balance_insufficient',
      msg: 'the balance (1.00) does not cover 3.50; recharge 2.50 more',
      data: null,
      params: { balance: '1.00', price: '3.50', short: '2.50' },
    });
  });

  it('has no params key for an error without them', async () => {
    const app = await appWithErrors();
    const body = (await app.inject({ method: 'GET', url: '/plain' })).json();
    expect(body).toEqual({ code: 'not_found', msg: 'site 9 does not exist', data: null });
    expect(Object.hasOwn(body, 'params')).toBe(false);
  });

  it('names the field and the rule of every invalid_param, thrown or from a schema', async () => {
    const app = await appWithErrors();
    expect((await app.inject({ method: 'GET', url: '/field' })).json()).toEqual({
      code: 'invalid_param',
      msg: 'name: is taken',
      data: null,
      params: { field: 'name', rule: 'is taken' },
    });
    const typed = (await app.inject({ method: 'POST', url: '/typed', payload: { port: 'x' } })).json();
    expect(typed.params).toEqual({ field: 'body/port', rule: 'must be integer' });
    expect(typed.msg).toBe('body/port: must be integer');
  });
});
