import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { acceptedNode, data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';

describe.each(DIALECTS)('node groups and regions read by id on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  let alice: string;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
    alice = await addUser(test, 'alice');
  });
  afterAll(async () => {
    await test.close();
  });

  it.each([
    ['/v1/node-groups', 'line group'],
    ['/v1/regions', 'regions'],
  ])('%s/{id}: admins read one; users are refused; an unknown id is 404', async (path, label) => {
    const id = data(await test.call('POST', path, { token: admin, body: { name: 'east' } })).id;
    expect((await test.call('GET', `${path}/${id}`, { token: admin })).body).toMatchObject({
      code: 0,
      msg: 'ok',
      data: { id, name: 'east' },
    });
    expect((await test.call('GET', `${path}/${id}`, { token: alice })).status).toBe(403);
    const missing = await test.call('GET', `${path}/999999`, { token: admin });
    expect(missing.body).toEqual({ code: 'not_found', msg: `${label} 999999 does not exist`, data: null });
  });

  it('refuses a node group or region that does not exist, naming the field, and changes nothing', async () => {
    const { nodeId } = await acceptedNode(test);
    for (const [field, label] of [
      ['group_id', 'node group'],
      ['region_id', 'region'],
    ] as const) {
      const result = await test.call('PUT', `/v1/nodes/${nodeId}`, { token: admin, body: { [field]: 999 } });
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ code: 'not_found', msg: `${field}: ${label} 999 does not exist`, data: null });
    }
    const node = await test.database.db
      .selectFrom('nodes')
      .select(['group_id', 'region_id'])
      .where('id', '=', nodeId)
      .executeTakeFirstOrThrow();
    expect(node).toEqual({ group_id: null, region_id: null });
    const group = data(await test.call('POST', '/v1/node-groups', { token: admin, body: { name: 'west' } })).id;
    const placed = await test.call('PUT', `/v1/nodes/${nodeId}`, { token: admin, body: { group_id: group } });
    expect(placed.body.code).toBe(0);
  });
});
