import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminToken } from './support/api.ts';
import { useSuite } from './support/suite.ts';

describe('/sys/op', () => {
  const suite = useSuite();

  const openAdmin = async () => {
    const { baseUrl, adminPassword } = suite.master();
    const page = await suite.openPage({ token: await adminToken(baseUrl, adminPassword) });
    await page.goto(suite.url('/sys/op'));
    await page.getByTestId('sys-op-page').waitFor();
    return page;
  };

  it('runs the agents’ self-test and keeps an agent release only with its checksum', async () => {
    const page = await openAdmin();
    // The call is awaited before its answer is looked for: a failure then tells a click that sent
    // nothing (or a refused call) from an answer the panel did not show.
    const answered = page.waitForResponse((response) => response.url().endsWith('/v1/maintain/agent-check'));
    await page.getByRole('button', { name: 'Run self-test' }).click();
    expect((await answered).status()).toBe(200);
    await page.getByText('0 of 0 agents passed').waitFor();

    await page.getByRole('tab', { name: 'Agent upgrades' }).click();
    const form = page.getByTestId('agent-release-form');
    const bundle = Buffer.from('not really a tarball, but bytes with a checksum');
    await form
      .getByLabel('Bundle (tar.gz)')
      .setInputFiles({ name: 'agent.tar.gz', mimeType: 'application/gzip', buffer: bundle });
    await form.getByLabel('Version').fill('../2.0');
    await form.getByLabel('SHA-256').fill('xyz');
    await form.getByRole('button', { name: 'Upload' }).click();
    await form.getByText('Letters, digits, dot, plus and dash, starting with a letter or digit (at most 32)').waitFor();
    await form.getByText('64 lowercase hex digits, as published with the release').waitFor();
    await form.getByLabel('Version').fill('2.0.0');
    await form.getByLabel('SHA-256').fill('0'.repeat(64));
    await form.getByRole('button', { name: 'Upload' }).click();
    await form.getByText(/^the bundle received has sha256 [0-9a-f]{64}$/).waitFor();
    await form.getByLabel('SHA-256').fill(createHash('sha256').update(bundle).digest('hex'));
    await form.getByRole('button', { name: 'Upload' }).click();
    await page.getByText('Release 2.0.0 uploaded').waitFor();
    await page.getByTestId('agent-upgrades').getByRole('cell', { name: '2.0.0', exact: true }).waitFor();
  });

  it('asks before a transfer and shows its log; stop-transfer ends it', async () => {
    const page = await openAdmin();
    await page.getByRole('tab', { name: 'Master transfer' }).click();
    const panel = page.getByTestId('master-transfer');
    // Nothing answers there: the transfer waits until it is stopped.
    await panel.getByLabel('New master address').fill('http://127.0.0.1:9');
    await panel.getByRole('button', { name: 'Start transfer' }).click();
    await page.getByText('Move every agent to http://127.0.0.1:9 once it answers?').waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('Transfer started').waitFor();
    await panel
      .getByTestId('transfer-log')
      .getByText(/export written: /)
      .waitFor();
    await panel.getByRole('button', { name: 'Stop transfer' }).click();
    await page.getByText('Stop the transfer? Agents not told yet stay with this master.').waitFor();
    await page.getByRole('button', { name: 'OK' }).click();
    await panel.getByTestId('transfer-log').getByText('stopped by an administrator; no agent was moved').waitFor();
    await panel.getByTestId('transfer-log').getByText('Stopped', { exact: true }).waitFor();
  });
});
