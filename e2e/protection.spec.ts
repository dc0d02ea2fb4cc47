import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Acl, Ban, CcFilter, CcMatch, CcRuleGroup, Site, WafDefaults } from '@rampart/contracts';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { createSite } from './support/edge.ts';
import { openInApp } from './support/navigate.ts';
import { confirmPopup, openDialog } from './support/overlays.ts';
import { exemptCustomerOf } from './support/packages.ts';
import { useSuite } from './support/suite.ts';

interface ListOf<T> {
  list: T[];
  total: number;
}

/** Opens an antd select and picks an option; the visible option carries its label as a title. */
const choose = async (page: Page, select: Locator, option: string) => {
  await select.click();
  await page.getByTitle(option, { exact: true }).filter({ visible: true }).click();
};

/** The requests of a method to a path the page sends from now on. */
const recordRequests = (page: Page, method: string, path: RegExp) => {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.method() === method && path.test(new URL(request.url()).pathname)) seen.push(request.url());
  });
  return seen;
};

describe('protection: rules, site protection, block log, bans and WAF settings', () => {
  const suite = useSuite();
  const customer = exemptCustomerOf(suite, 'petra');
  const api = async <T>(method: string, path: string, token: string, body?: unknown) =>
    callApi<T>(suite.master().baseUrl, method, path, { token, body });

  /** A line of the access log that protection acted on, as the ingest would store it. */
  const logBlocked = (siteId: number, clientIp: string, blockReason: string) => {
    const logs = new DatabaseSync(join(suite.master().dataDir, 'rampart-logs.db'));
    try {
      logs
        .prepare(
          `INSERT INTO access_logs (node_id, site_id, time_ms, client_ip, method, host, uri, status, bytes_sent,
             bytes_received, request_time_ms, upstream_time_ms, cache_status, user_agent, referer, block_reason)
           VALUES (1, ?, ?, ?, 'GET', 'guard.example.com', '/login', 403, 0, 0, 0, NULL, '', 'curl/8', '', ?)`,
        )
        .run(siteId, Date.now(), clientIp, blockReason);
    } finally {
      logs.close();
    }
  };

  it('builds a match, a filter and a rule group in the UI and attaches the group to a site', async () => {
    const { token } = await customer();
    const site = await createSite(suite, token, 'shield.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/rule'));
    await page.getByTestId('rule-page').waitFor();

    await page.getByRole('tab', { name: 'Matches' }).click();
    let drawer = await openDialog(page, page.getByRole('button', { name: 'Add match' }));
    await drawer.getByLabel('Name').fill('api calls');
    await drawer.getByLabel('Condition 1 values').fill('/api/\n/v2/');
    await drawer.getByRole('button', { name: 'Add condition' }).click();
    await choose(page, drawer.getByRole('combobox', { name: 'Condition 2 field' }), 'Method');
    await choose(page, drawer.getByRole('combobox', { name: 'Condition 2 operator' }), 'equals');
    await drawer.getByLabel('Condition 2 values').fill('POST');
    await drawer.getByTestId('protection-drawer-submit').click();
    await page
      .getByTestId('protection-matches')
      .getByRole('row', { name: /api calls/ })
      .waitFor();
    const [match] = (await api<ListOf<CcMatch>>('GET', '/v1/cc-matchs?name=api%20calls', token)).list;
    expect(match?.conditions).toEqual([
      { field: 'path', op: 'prefix', values: ['/api/', '/v2/'], negate: false },
      { field: 'method', op: 'equals', values: ['POST'], negate: false },
    ]);

    await page.getByRole('tab', { name: 'Filters' }).click();
    drawer = await openDialog(page, page.getByRole('button', { name: 'Add filter' }));
    await drawer.getByLabel('Name').fill('slow down');
    await drawer.getByLabel('Requests').fill('30');
    await drawer.getByLabel('Seconds').fill('10');
    await drawer.getByTestId('protection-drawer-submit').click();
    await page
      .getByTestId('protection-filters')
      .getByRole('row', { name: /slow down/ })
      .waitFor();
    const [filter] = (await api<ListOf<CcFilter>>('GET', '/v1/cc-filters?name=slow', token)).list;
    expect(filter).toMatchObject({ type: 'rate', requests: 30, seconds: 10, per: 'ip' });

    await page.getByRole('tab', { name: 'Rule groups' }).click();
    drawer = await openDialog(page, page.getByRole('button', { name: 'Add rule group' }));
    await drawer.getByLabel('Name').fill('shop rules');
    await choose(page, drawer.getByRole('combobox', { name: 'Line 1 match' }), 'api calls');
    await choose(page, drawer.getByRole('combobox', { name: 'Line 1 filter' }), 'slow down');
    await choose(page, drawer.getByRole('combobox', { name: 'Line 1 action' }), 'Ban the IP');
    await drawer.getByLabel('Line 1 ban seconds').fill('900');
    await drawer.getByTestId('protection-drawer-submit').click();
    await page
      .getByTestId('protection-groups')
      .getByRole('row', { name: /shop rules/ })
      .waitFor();
    const [group] = (await api<ListOf<CcRuleGroup>>('GET', '/v1/cc-rules?name=shop', token)).list;
    expect(group?.rules).toEqual([{ match_id: match?.id, filter_id: filter?.id, action: 'ban', ban_seconds: 900 }]);

    await openInApp(page, `/site/list/${site.id}`);
    await page.getByRole('tab', { name: 'Protection', exact: true }).click();
    const section = page.getByTestId('protection-section');
    await choose(page, section.getByRole('combobox', { name: 'Rule group', exact: true }), 'shop rules');
    await section.getByLabel('Whitelist').fill('203.0.113.7\n2001:db8::/48');
    await section.getByRole('button', { name: 'Add entry' }).click();
    await section.getByLabel('Entry 1 values').fill('198.51.100.0/24');
    const aclSaved = page.waitForResponse((response) => response.url().endsWith('/v1/acls'));
    await section.getByTestId('protection-save').click();
    await aclSaved;
    await page.getByText('Protection saved').waitFor();
    const stored = await api<Site>('GET', `/v1/sites/${site.id}`, token);
    expect(stored.protection).toMatchObject({ rule_group_id: group?.id, whitelist: ['203.0.113.7', '2001:db8::/48'] });
    const [acl] = (await api<ListOf<Acl>>('GET', `/v1/acls?site_id=${site.id}`, token)).list;
    expect(acl?.entries).toEqual([
      { action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['198.51.100.0/24'], negate: false } },
    ]);
  });

  it('refuses hostile values with the rule next to the field and saves nothing', async () => {
    const { token } = await customer();
    const site = await createSite(suite, token, 'hostile.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/rule'));
    await page.getByRole('tab', { name: 'Matches' }).click();
    await page.getByRole('button', { name: 'Add match' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('Name').fill('evil"name');
    await choose(page, drawer.getByRole('combobox', { name: 'Condition 1 field' }), 'Client IP');
    await drawer.getByLabel('Condition 1 values').fill('10.0.0.1; rm -rf /');
    const posted = recordRequests(page, 'POST', /^\/v1\//);
    await drawer.getByTestId('protection-drawer-submit').click();
    await drawer
      .getByText('10.0.0.1; rm -rf / is not allowed: an IPv4 or IPv6 address or CIDR range such as 203.0.113.0/24')
      .waitFor();
    await drawer.getByText(/^1 to 64 characters without control characters/).waitFor();
    expect(posted).toEqual([]);
    expect((await api<ListOf<CcMatch>>('GET', '/v1/cc-matchs?name=evil', token)).total).toBe(0);

    await openInApp(page, `/site/list/${site.id}`);
    await page.getByRole('tab', { name: 'Protection', exact: true }).click();
    const section = page.getByTestId('protection-section');
    await section.getByLabel('Whitelist').fill('203.0.113.7\n10.0.0.0/8 }');
    const put = recordRequests(page, 'PUT', /^\/v1\//);
    await section.getByTestId('protection-save').click();
    await section.getByText('10.0.0.0/8 } is not allowed', { exact: false }).waitFor();
    expect(put).toEqual([]);
    const stored = await api<Site>('GET', `/v1/sites/${site.id}`, token);
    expect(stored.protection?.whitelist).toEqual([]);
  });

  it('shows system rows read-only to users; deleting a match in use shows the master’s reason', async () => {
    const { token } = await customer();
    const admin = await adminToken(suite.master().baseUrl, suite.master().adminPassword);
    await api('POST', '/v1/cc-matchs', admin, {
      name: 'system bots',
      conditions: [{ field: 'user_agent', op: 'contains', values: ['bot'], negate: false }],
      system: true,
    });
    const condition = { field: 'path', op: 'prefix', values: ['/'], negate: false };
    const used = await api<CcMatch>('POST', '/v1/cc-matchs', token, { name: 'in use', conditions: [condition] });
    const filter = await api<CcFilter>('POST', '/v1/cc-filters', token, { name: 'js check', type: 'js' });
    await api('POST', '/v1/cc-rules', token, {
      name: 'uses it',
      rules: [{ match_id: used.id, filter_id: filter.id, action: 'block', ban_seconds: 600 }],
    });
    await api('POST', '/v1/cc-matchs', token, { name: 'spare one', conditions: [condition] });
    await api('POST', '/v1/cc-matchs', token, { name: 'spare two', conditions: [condition] });

    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/rule'));
    await page.getByRole('tab', { name: 'Matches' }).click();
    const matches = page.getByTestId('protection-matches');
    const systemRow = matches.getByRole('row', { name: /system bots/ });
    await systemRow.getByText('System', { exact: true }).waitFor();
    await expect.poll(() => systemRow.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    await systemRow.getByRole('button', { name: 'View' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByTestId('system-read-only').waitFor();
    await expect.poll(() => drawer.getByTestId('protection-drawer-submit').count()).toBe(0);
    await drawer.getByRole('button', { name: 'Close' }).click();

    await matches
      .getByRole('row', { name: /in use/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await confirmPopup(page);
    await page.getByText(`match ${used.id} is used by rule group`, { exact: false }).waitFor();

    for (const name of ['spare one', 'spare two']) {
      await matches
        .getByRole('row', { name: new RegExp(name) })
        .getByRole('checkbox')
        .check();
    }
    await matches.getByRole('button', { name: 'Delete selected (2)' }).click();
    await confirmPopup(page);
    await matches.getByRole('row', { name: /spare one/ }).waitFor({ state: 'detached' });
    expect((await api<ListOf<CcMatch>>('GET', '/v1/cc-matchs?name=spare', token)).total).toBe(0);
    expect((await api<ListOf<CcMatch>>('GET', '/v1/cc-matchs?name=in%20use', token)).total).toBe(1);
  });

  it('allows a blocked IP from the block log with an allow entry at the top of the site ACL', async () => {
    const { token } = await customer();
    const guarded = await createSite(suite, token, 'guard.example.com');
    const open = await createSite(suite, token, 'open.example.com');
    const deny = { action: 'deny', condition: { field: 'ip', op: 'cidr', values: ['198.51.100.0/24'], negate: false } };
    await api('POST', '/v1/acls', token, { site_id: guarded.id, entries: [deny] });
    logBlocked(guarded.id, '198.51.100.23', 'kind=acl;action=deny;detail=entry 1');
    logBlocked(open.id, '192.0.2.44', 'kind=rate;action=block;group=3;match=1;filter=2;detail=31 requests in 10 s');

    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/block-log'));
    const log = page.getByTestId('block-log');
    for (const [ip, siteId] of [
      ['198.51.100.23', guarded.id],
      ['192.0.2.44', open.id],
    ] as const) {
      await log
        .getByRole('row', { name: new RegExp(ip.replaceAll('.', '\\.')) })
        .getByRole('button', { name: 'Allow this IP' })
        .click();
      await confirmPopup(page);
      await page.getByText(`${ip} is allowed`).waitFor();
      const [acl] = (await api<ListOf<Acl>>('GET', `/v1/acls?site_id=${siteId}`, token)).list;
      const allow = { action: 'allow', condition: { field: 'ip', op: 'cidr', values: [ip], negate: false } };
      expect(acl?.entries).toEqual(siteId === guarded.id ? [allow, deny] : [allow]);
    }
  });

  it('skips the WAF rules of a blocked request on its site in one click', async () => {
    const { token } = await customer();
    const site = await createSite(suite, token, 'waf.example.com');
    const protection = (await api<Site>('GET', `/v1/sites/${site.id}`, token)).protection;
    await api('PUT', `/v1/sites/${site.id}`, token, {
      protection: { ...protection, waf: { mode: 'block', paranoia: 1, exclusions: [920350] } },
    });
    logBlocked(
      site.id,
      '203.0.113.9',
      'kind=waf;action=block;detail=rules 942100,942190: SQL Injection Attack Detected via libinjection',
    );

    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/block-log'));
    const row = page.getByTestId('block-log').getByRole('row', { name: /203\.0\.113\.9/ });
    await row.getByRole('button', { name: 'Skip these rules' }).click();
    await confirmPopup(page, { question: 'Skip WAF rules 942100, 942190 on guard.example.com?' });
    await page.getByText('Rules 942100, 942190 are skipped on this site').waitFor();
    const after = (await api<Site>('GET', `/v1/sites/${site.id}`, token)).protection;
    expect(after?.waf).toEqual({ mode: 'block', paranoia: 1, exclusions: [920350, 942100, 942190] });
  });

  it('bans an address by hand, lifts it and keeps it in the history', async () => {
    const { token } = await customer();
    await createSite(suite, token, 'banned.example.com');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/site/block-log'));
    await page.getByRole('tab', { name: 'Current bans' }).click();
    await page.getByRole('button', { name: 'Ban an address' }).click();
    const dialog = page.getByRole('dialog');
    await choose(page, dialog.getByRole('combobox', { name: 'Site' }), 'banned.example.com');
    await dialog.getByLabel('Address or range').fill('203.0.113.0/24');
    await dialog.getByLabel('Reason').fill('scanner');
    await dialog.getByRole('button', { name: 'Ban', exact: true }).click();
    const row = page.getByTestId('ban-list').getByRole('row', { name: /203\.0\.113\.0\/24/ });
    await row.getByText('scanner').waitFor();
    const bans = await api<ListOf<Ban>>('GET', '/v1/monitor/site/blackip', token);
    expect(bans.list.map((ban) => ban.cidr)).toContain('203.0.113.0/24');

    await row.getByRole('button', { name: 'Unban' }).click();
    await confirmPopup(page);
    await row.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Ban history' }).click();
    await page
      .getByTestId('ban-history')
      .getByRole('row', { name: /203\.0\.113\.0\/24/ })
      .waitFor();
  });

  it('saves the WAF defaults and the default system rule group (admins)', async () => {
    const { baseUrl, adminPassword } = suite.master();
    const admin = await adminToken(baseUrl, adminPassword);
    const group = await api<CcRuleGroup>('POST', '/v1/cc-rules', admin, { name: 'baseline', rules: [], system: true });
    const page = await suite.openPage({ token: admin });
    await page.goto(suite.url('/config/waf'));
    await page.getByTestId('waf-config-page').waitFor();
    await choose(page, page.getByRole('combobox', { name: 'WAF mode' }), 'Detect only');
    await choose(page, page.getByRole('combobox', { name: 'Paranoia level' }), '2');
    await page.getByLabel('Rules to skip').fill('920350, 942100');
    await page.getByTestId('waf-defaults-save').click();
    await page.getByText('Saved').first().waitFor();
    const waf = await api<WafDefaults>('GET', '/v1/configs/global-0-waf-defaults', admin);
    expect(waf).toEqual({ mode: 'detect', paranoia: 2, exclusions: [920350, 942100] });

    await choose(page, page.getByRole('combobox', { name: 'Default rule group' }), 'baseline (System)');
    const marked = page.waitForResponse((response) => response.url().endsWith(`/v1/cc-rules/${group.id}`));
    await page.getByTestId('default-group-save').click();
    expect(JSON.parse((await marked).request().postData() ?? '{}')).toEqual({ is_default: true });
    const groups = await api<ListOf<CcRuleGroup>>('GET', '/v1/cc-rules?name=baseline', admin);
    expect(groups.list[0]?.is_default).toBe(true);
  });
});
