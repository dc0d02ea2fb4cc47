import type { AdminSetup } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { data } from '../../test/protection.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { switchAlipay } from '../payments/payments.fixtures.ts';

describe.each(DIALECTS)('the first-run checklist on $dialect', (target) => {
  let test: TestApp;
  let root: string;
  beforeAll(async () => {
    test = await startTestApp(target, { background: false, codeChannels: false });
    root = await test.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => test.close());

  const setup = async (token: string) =>
    Object.fromEntries(
      data<AdminSetup>(await test.call('GET', '/v1/admin/setup', { token })).items.map((item) => [
        item.key,
        [item.done, item.path],
      ]),
    );

  it('shows the root admin each step with its page, and ticks a step once it is done', async () => {
    expect(await setup(root)).toEqual({
      node: [false, '/node/list'],
      line_group: [false, '/node/line-group'],
      cname_domain: [false, '/node/dns'],
      package: [false, '/package/basic'],
      payment: [false, '/sys/setting?tab=payment'],
      smtp: [false, '/sys/setting?tab=smtp'],
    });
    data(
      await test.call('POST', '/v1/packages', {
        token: root,
        body: { name: 'Basic', price_month: 100, on_sale: true },
      }),
    );
    data(await test.call('POST', '/v1/node-groups', { token: root, body: { name: 'Main', host: 'edge' } }));
    await switchAlipay(test, root, true);
    const body = {
      smtp_host: 'mail.example.com',
      smtp_port: 587,
      smtp_secure: false,
      smtp_username: '',
      smtp_password: '',
      smtp_from: '',
    };
    data(await test.call('PUT', '/v1/configs/global-0-system-smtp', { token: root, body }));
    expect(await setup(root)).toMatchObject({
      node: [false, '/node/list'],
      line_group: [true, '/node/line-group'],
      cname_domain: [false, '/node/dns'],
      package: [true, '/package/basic'],
      payment: [true, '/sys/setting?tab=payment'],
      smtp: [true, '/sys/setting?tab=smtp'],
    });
  });

  it('answers null for the steps outside a sub-admin’s codes, and refuses customers', async () => {
    const body = { username: 'seller', password: 'seller-pass-1', type: 1, access: ['admin:package'] };
    data(await test.call('POST', '/v1/users', { token: root, body }));
    const seller = await test.login('seller', 'seller-pass-1');
    const seen = await setup(seller);
    expect(Object.entries(seen).map(([key, [done]]) => [key, done])).toEqual([
      ['node', null],
      ['line_group', null],
      ['cname_domain', null],
      ['package', true],
      ['payment', null],
      ['smtp', null],
    ]);
    const customer = await addUser(test, 'carol');
    expect((await test.call('GET', '/v1/admin/setup', { token: customer })).body.code).toBe('forbidden');
  });
});
