import type { Stream } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { callApi } from './support/api.ts';
import { openDialog } from './support/overlays.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

describe('streams: add drawer and listen-port conflicts', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'stefan');

  it('adds a stream, then explains the port conflict of a second one on the same port', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/stream/list'));
    await page.getByTestId('stream-list-page').waitFor();
    const add = async () => {
      const drawer = await openDialog(page, page.getByRole('button', { name: 'Add forwarding' }));
      await drawer.getByLabel('Listen port').fill('15353');
      await drawer.getByLabel('Origin 1 address').fill('10.0.0.53');
      await drawer.getByLabel('Origin 1 port').fill('53');
      await drawer.getByTestId('stream-drawer-submit').click();
      return drawer;
    };
    await add();
    await page.getByRole('link', { name: '15353' }).waitFor();
    const { list } = await callApi<{ list: Stream[] }>(suite.master().baseUrl, 'GET', '/v1/streams', { token });
    expect(list.map((stream) => [stream.listen_port, stream.protocol, stream.origins[0]?.address])).toEqual([
      [15353, 'tcp', '10.0.0.53'],
    ]);
    const second = await add();
    await second.getByText(/port 15353\/tcp is already used/).waitFor();
    const after = await callApi<{ total: number }>(suite.master().baseUrl, 'GET', '/v1/streams', { token });
    expect(after.total).toBe(1);
  });

  it('shows on the edit page which nodes have applied the stream', async () => {
    const { token } = await customer();
    const stream = await callApi<Stream>(suite.master().baseUrl, 'POST', '/v1/streams', {
      token,
      body: {
        listen_port: 15454,
        protocol: 'tcp',
        origins: [{ address: '10.0.0.54', port: 54, weight: 1, backup: false }],
      },
    });
    const page = await suite.openPage({ token });
    await page.goto(suite.url(`/stream/list/${stream.id}`));
    await page.getByTestId('stream-edit-page').waitFor();
    await page
      .getByTestId('apply-status')
      .getByText(/^Version \d+/)
      .waitFor();
  });
});
