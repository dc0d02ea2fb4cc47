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

async function appWith(register: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify();
  await app.register(fakeAuth);
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
});
