import Fastify, { type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import type { UserRow } from '../modules/users/user-row.ts';
import { envelope } from './envelope.ts';
import { policy, routePolicy, scopeOf } from './route-policy.ts';

/** A stand-in for the auth plugin: the `user` header names one of these callers. */
const CALLERS: Record<string, { type: number; access: string[]; impersonatorId?: number }> = {
  customer: { type: 2, access: ['admin:sys'] },
  node: { type: 1, access: ['admin:node'] },
  finance: { type: 1, access: ['admin:finance'] },
  impersonating: { type: 2, access: [], impersonatorId: 1 },
};

const fakeAuth = fp(
  async (app) => {
    app.decorateRequest('auth', null);
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const name = String(request.headers.user ?? '');
      const found = CALLERS[name];
      if (!found) throw Object.assign(new Error('please sign in'), { statusCode: 401 });
      const user = {
        id: Object.keys(CALLERS).indexOf(name) + 1,
        type: found.type,
        access: JSON.stringify(found.access),
      };
      request.auth = {
        user: user as unknown as UserRow,
        sessionId: 1,
        expiresAt: Date.now() + 60_000,
        impersonatorId: found.impersonatorId ?? null,
      };
    });
  },
  { name: 'auth' },
);

// The real authenticate answers a cached caller at once (no promise) and throws at once without a token.
const syncAuth = fp(
  async (app) => {
    app.decorateRequest('auth', null);
    app.decorate('authenticate', (request: FastifyRequest) => {
      if (request.headers.user !== 'customer') throw Object.assign(new Error('please sign in'), { statusCode: 401 });
      const user = { id: 7, type: 2, access: '[]' } as unknown as UserRow;
      request.auth = { user, sessionId: 1, expiresAt: Date.now() + 60_000, impersonatorId: null };
      return undefined;
    });
  },
  { name: 'auth' },
);

async function appWith(register: (app: ReturnType<typeof Fastify>) => void, auth = fakeAuth) {
  const app = Fastify();
  await app.register(auth);
  await app.register(routePolicy);
  await app.register(envelope);
  register(app);
  await app.ready();
  return app;
}

describe('route policies', () => {
  it('refuses to start when a route declares no policy', async () => {
    await expect(appWith((app) => app.get('/v1/forgotten', async () => 'open'))).rejects.toThrow(
      'GET /v1/forgotten: the route declares no access policy (config.policy)',
    );
  });

  it('lets each caller in as the policy says, and hands the handler its scope', async () => {
    const app = await appWith((app) => {
      const scope = async (request: FastifyRequest) => scopeOf(request);
      app.get('/public', { config: { policy: policy.public } }, async () => ({ open: true }));
      app.get('/self', { config: { policy: policy.self } }, scope);
      app.post('/key', { config: { policy: policy.selfNotImpersonated } }, scope);
      app.get('/nodes', { config: { policy: policy.admin('admin:node') } }, scope);
      app.get('/orders', { config: { policy: policy.tenant('admin:finance') } }, scope);
    });
    const call = async (method: 'GET' | 'POST', url: string, user?: string) => {
      const response = await app.inject({ method, url, headers: user ? { user } : {} });
      return [response.statusCode, response.statusCode === 200 ? response.json() : undefined];
    };
    expect(await call('GET', '/public')).toEqual([200, { open: true }]);
    expect((await call('GET', '/self'))[0]).toBe(401);
    // A customer's access column counts for nothing: only administrators hold codes.
    expect(await call('GET', '/self', 'customer')).toEqual([200, { kind: 'user', userId: 1 }]);
    expect((await call('GET', '/nodes', 'customer'))[0]).toBe(403);
    expect((await call('GET', '/nodes', 'finance'))[0]).toBe(403);
    expect(await call('GET', '/nodes', 'node')).toEqual([200, { kind: 'admin', userId: 2 }]);
    expect(await call('GET', '/orders', 'customer')).toEqual([200, { kind: 'user', userId: 1 }]);
    expect(await call('GET', '/orders', 'node')).toEqual([200, { kind: 'user', userId: 2 }]);
    expect(await call('GET', '/orders', 'finance')).toEqual([200, { kind: 'admin', userId: 3 }]);
    expect((await call('POST', '/key', 'impersonating'))[0]).toBe(403);
    expect(await call('POST', '/key', 'customer')).toEqual([200, { kind: 'user', userId: 1 }]);
    await app.close();
  });

  it('takes a caller authenticated at once, and a refusal thrown at once', async () => {
    const app = await appWith((app) => {
      app.get('/self', { config: { policy: policy.self } }, async (request: FastifyRequest) => scopeOf(request));
      app.get('/nodes', { config: { policy: policy.admin('admin:node') } }, async () => 'nodes');
    }, syncAuth);
    const get = (url: string, user?: string) => app.inject({ method: 'GET', url, headers: user ? { user } : {} });
    expect((await get('/self', 'customer')).json()).toEqual({ kind: 'user', userId: 7 });
    expect((await get('/self')).statusCode).toBe(401);
    expect((await get('/nodes', 'customer')).statusCode).toBe(403);
    await app.close();
  });
});
