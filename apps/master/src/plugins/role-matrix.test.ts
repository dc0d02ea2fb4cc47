import { ALL_ADMIN_PERMISSIONS } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAlipayRecharge } from '../modules/payments/payments.fixtures.ts';
import { saveSetting } from '../modules/settings/settings.service.ts';
import { makeCert } from '../test/certs.ts';
import { DIALECTS } from '../test/databases.ts';
import { type OpenApiDocument, type Operation, operationsOf, sampleOf } from '../test/openapi-operations.ts';
import { createSite, data, ORIGIN, userGroup } from '../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../test/test-app.ts';
import type { RoutePolicy } from './route-policy.ts';

/**
 * The role matrix: every operation of the OpenAPI document (its `x-policy` is the route's declared
 * policy), called by every kind of caller on objects owned by customer A, customer B and the root
 * admin. Each answer must match the policy: 2xx only where it allows the caller, 401/403/404 where
 * it does not, no write to another tenant's object, and no other tenant's row in any answer.
 * Each role gets fresh owners and objects (its own writes and deletes cannot hide another's leak).
 */

type Owner = 'a' | 'b' | 'root';

interface Role {
  name: string;
  /** Signed in as which user: a customer, a sub-admin or the root admin; null when anonymous. */
  as: 'a' | 'b' | 'sub' | 'root' | null;
  /** The codes an administrator holds; null for a customer (or a session acting as one). */
  codes: readonly string[] | null;
  kind?: 'impersonation' | 'impersonation-refreshed' | 'read-key';
}

const ROLES: readonly Role[] = [
  { name: 'anonymous', as: null, codes: null },
  { name: 'customer A', as: 'a', codes: null },
  { name: 'customer B', as: 'b', codes: null },
  { name: 'root admin as A (impersonation)', as: 'a', codes: null, kind: 'impersonation' },
  { name: 'root admin as A (impersonation, refreshed)', as: 'a', codes: null, kind: 'impersonation-refreshed' },
  { name: 'read-only API key of A', as: 'a', codes: null, kind: 'read-key' },
  { name: 'sub-admin with no code', as: 'sub', codes: [] },
  ...ALL_ADMIN_PERMISSIONS.map((code): Role => ({ name: `sub-admin with ${code}`, as: 'sub', codes: [code] })),
  { name: 'root admin', as: 'root', codes: ALL_ADMIN_PERMISSIONS },
];

const holdsOne = (held: readonly string[] | null, codes: readonly string[]) =>
  held !== null && (codes.length === 0 || codes.some((code) => held.includes(code)));

/** Whether the policy lets the role in at all. */
function admits(policy: RoutePolicy, role: Role): boolean {
  switch (policy.kind) {
    case 'public':
      return true;
    case 'agent':
      return false;
    case 'self':
      return role.as !== null && !(policy.impersonation === 'refused' && role.kind?.startsWith('impersonation'));
    case 'admin':
      return holdsOne(role.codes, policy.codes);
    case 'tenant':
      return role.as !== null;
  }
}

/** Whether the role reaches every user's rows under the policy (otherwise only its own). */
const reachesAll = (policy: RoutePolicy, role: Role) =>
  (policy.kind === 'admin' || policy.kind === 'tenant') && holdsOne(role.codes, policy.codes);

// Logging out and refreshing replace the caller's token: last, so every other call still has one.
const LAST = new Set(['POST /v1/common/auth', 'DELETE /v1/common/auth']);
const order = (operation: Operation) =>
  LAST.has(`${operation.method} ${operation.path}`) ? 4 : ['GET', 'POST', 'PUT', 'DELETE'].indexOf(operation.method);

let serial = 0;

/** Signs in from an address of its own: the anonymous role's failed sign-ins must not bring a captcha on. */
async function signInAs(test: TestApp, account: string, password: string): Promise<string> {
  const response = await test.app.inject({
    method: 'POST',
    url: '/v1/login',
    remoteAddress: `127.0.1.${++serial % 250}`,
    payload: { account, password },
  });
  return data<{ access_token: string }>({ status: response.statusCode, body: response.json(), headers: {} })
    .access_token;
}

interface Seeded {
  tokens: Record<Owner, string>;
  userIds: Record<Owner, number>;
  markers: Record<Owner, string>;
  /** Per collection path (/v1/sites), the id of each owner's object. */
  ids: Map<string, Record<Owner, number>>;
}

async function seed(test: TestApp, rootToken: string): Promise<Seeded> {
  const round = ++serial;
  // An earlier role may have reset the business settings (DELETE): the customers create without packages here.
  await saveSetting(test.database.db, 'require_package', false);
  const markers: Record<Owner, string> = { a: `mxa${round}z`, b: `mxb${round}z`, root: `mxr${round}z` };
  const tokens: Record<Owner, string> = {
    a: await addUser(test, markers.a),
    b: await addUser(test, markers.b),
    root: rootToken,
  };
  const userIds = {} as Record<Owner, number>;
  const ids = new Map<string, Record<Owner, number>>();
  const record = (path: string, owner: Owner, id: number) => {
    const known = ids.get(path) ?? ({} as Record<Owner, number>);
    known[owner] = id;
    ids.set(path, known);
  };
  const post = async (url: string, token: string, body: object) =>
    data(await test.call('POST', url, { token, body })).id;
  for (const owner of ['a', 'b', 'root'] as const) {
    const token = tokens[owner];
    const marker = markers[owner];
    userIds[owner] = data<{ id: number }>(await test.call('GET', '/v1/user', { token })).id;
    record('/v1/users', owner, userIds[owner]);
    const cert = makeCert([`${marker}.example.com`]);
    record('/v1/certs', owner, await post('/v1/certs', token, { cert: cert.cert, key: cert.key }));
    record('/v1/site-groups', owner, await post('/v1/site-groups', token, { name: marker }));
    record('/v1/stream-groups', owner, await post('/v1/stream-groups', token, { name: marker }));
    const site = await createSite(test, token, `${marker}.example.com`);
    record('/v1/sites', owner, site);
    const port = 20_000 + round * 10 + ['a', 'b', 'root'].indexOf(owner);
    record(
      '/v1/streams',
      owner,
      await post('/v1/streams', token, { name: marker, listen_port: port, protocol: 'tcp', origins: [ORIGIN] }),
    );
    const rules = await userGroup(test, token, marker);
    record('/v1/cc-rules', owner, rules.id);
    record('/v1/cc-matchs', owner, rules.matchId);
    record('/v1/cc-filters', owner, rules.filterId);
    record(
      '/v1/acls',
      owner,
      await post('/v1/acls', token, {
        site_id: site,
        entries: [{ action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['10.0.0.1'] } }],
      }),
    );
    record(
      '/v1/jobs',
      owner,
      await post('/v1/jobs', token, { type: 'purge-url', urls: [`http://${marker}.example.com/a`] }),
    );
    record('/v1/orders', owner, (await openAlipayRecharge(test, rootToken, token, 100)).id);
  }
  return { tokens, userIds, markers, ids };
}

/** The collection an operation's `{id}` belongs to, when it is one of the seeded ones. */
function collectionOf(path: string, seeded: Seeded): string | undefined {
  let best: string | undefined;
  for (const prefix of seeded.ids.keys()) {
    if (path.startsWith(`${prefix}/{`) && (!best || prefix.length > best.length)) best = prefix;
  }
  return best;
}

describe.each(DIALECTS)('the role matrix on $dialect', (target) => {
  let test: TestApp;
  let document: OpenApiDocument & { paths: Record<string, Record<string, { 'x-policy'?: RoutePolicy }>> };
  let operations: Operation[];
  let rootToken: string;

  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    rootToken = await test.login('admin', ADMIN_PASSWORD);
    // Outbound calls (DNS checks, DNS provider APIs) go to a closed local port and fail at once.
    await saveSetting(test.database.db, 'dns_resolver', '127.0.0.1:9');
    await saveSetting(test.database.db, 'cloudflare_api_url', 'http://127.0.0.1:9');
    await saveSetting(test.database.db, 'dnspod_api_url', 'http://127.0.0.1:9');
    document = (await test.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    operations = operationsOf(document, '/').sort((x, y) => order(x) - order(y));
  });
  afterAll(async () => {
    await test?.close();
  });

  const policyOf = (operation: Operation): RoutePolicy | undefined =>
    document.paths[operation.path]?.[operation.method.toLowerCase()]?.['x-policy'];

  it('has a declared policy on every operation of the document', () => {
    const undeclared = operations.filter((operation) => !policyOf(operation));
    expect(undeclared.map((operation) => `${operation.method} ${operation.path}`)).toEqual([]);
    expect(operations.length).toBeGreaterThan(250);
  });

  /** A session (or key) for the role, on fresh owners. */
  async function signIn(role: Role, seeded: Seeded): Promise<{ token: string | null; userId: number | null }> {
    switch (role.as) {
      case null:
        return { token: null, userId: null };
      case 'root':
        return { token: await signInAs(test, 'admin', ADMIN_PASSWORD), userId: seeded.userIds.root };
      case 'b':
        return { token: seeded.tokens.b, userId: seeded.userIds.b };
      case 'sub': {
        const username = `sub${++serial}`;
        const made = data<{ id: number }>(
          await test.call('POST', '/v1/users', {
            token: rootToken,
            body: { username, password: 'sub-admin-1', type: 1, access: role.codes },
          }),
        );
        return { token: await signInAs(test, username, 'sub-admin-1'), userId: made.id };
      }
      case 'a':
        break;
    }
    const userId = seeded.userIds.a;
    if (role.kind === 'read-key') {
      const key = data<{ token: string }>(
        await test.call('POST', '/v1/api-key', { token: seeded.tokens.a, body: { scope: 'read' } }),
      );
      return { token: key.token, userId };
    }
    if (role.kind?.startsWith('impersonation')) {
      const session = data<{ access_token: string }>(
        await test.call('POST', `/v1/users/${userId}/impersonate`, { token: rootToken }),
      );
      if (role.kind === 'impersonation') return { token: session.access_token, userId };
      const refreshed = data<{ access_token: string }>(
        await test.call('POST', '/v1/common/auth', { token: session.access_token }),
      );
      return { token: refreshed.access_token, userId };
    }
    return { token: seeded.tokens.a, userId };
  }

  it.each(ROLES)('answers $name as each route declares', async (role) => {
    const seeded = await seed(test, rootToken);
    const { token } = await signIn(role, seeded);
    const own: Owner | null = role.as === 'a' || role.as === 'b' ? role.as : role.as === 'root' ? 'root' : null;
    const failures: string[] = [];
    for (const operation of operations) {
      const routePolicy = policyOf(operation);
      if (!routePolicy) continue;
      const label = `${operation.method} ${operation.path}`;
      const collection = collectionOf(operation.path, seeded);
      const owners: (Owner | null)[] = collection ? ['b', 'a', 'root'] : [null];
      for (const owner of owners) {
        const objectId = owner && collection ? seeded.ids.get(collection)?.[owner] : undefined;
        const url = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
          name === 'key' ? 'global-0-waf-defaults' : String(objectId ?? 1),
        );
        const body = operation.body ? sampleOf(operation.body) : undefined;
        const response = await test.app.inject({
          method: operation.method,
          url,
          remoteAddress: '127.0.2.1',
          headers: {
            ...(token && { 'access-token': token }),
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          ...(body !== undefined && { payload: JSON.stringify(body) }),
        });
        const where = `${label}${owner ? ` on ${owner}'s object` : ''}: ${response.statusCode}`;
        const success = response.statusCode >= 200 && response.statusCode < 300;
        if (!admits(routePolicy, role)) {
          // An agent route refuses a missing or wrong node credential (or install token) as it reads it.
          const expected = routePolicy.kind === 'agent' ? [401, 403] : role.as === null ? [401] : [403, 404];
          if (!expected.includes(response.statusCode)) failures.push(`${where}, the policy refuses this caller`);
          continue;
        }
        if (response.statusCode >= 500) failures.push(`${where} ${response.body.slice(0, 120)}`);
        if (!success) continue;
        const all = reachesAll(routePolicy, role);
        if (!all && owner !== null && owner !== own) failures.push(`${where}, another tenant's object`);
        if (!all) {
          const seen = (['a', 'b', 'root'] as const).filter(
            (other) => other !== own && response.body.includes(seeded.markers[other]),
          );
          if (seen.length > 0) failures.push(`${where}, shows rows of ${seen.join(' and ')}`);
        }
      }
    }
    expect(failures.join('\n')).toBe('');
  });
});
