import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { EdgeRuleGroup, SiteProtection } from '@rampart/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite } from '../src/testing/snapshots.ts';
import { launchChromium } from './support/browser.ts';
import { createEdge, type TestEdge } from './support/edge.ts';
import { type Answer, edgeRequest, eventually } from './support/http.ts';
import { type Origin, startOrigin } from './support/origin.ts';

const guard = (rule_group_id: number): SiteProtection => ({
  rule_group_id,
  attack_rule_group_id: null,
  under_attack: false,
  whitelist: [],
  waf: { mode: 'off', paranoia: 1, exclusions: [] },
});

const group = (id: number): EdgeRuleGroup => ({
  id,
  rules: [
    {
      match_id: 10 + id,
      filter_id: 20 + id,
      conditions: [{ field: 'path', op: 'prefix', values: ['/'], negate: false }],
      filter: { name: 'captcha', type: 'captcha', valid_seconds: 600 },
      action: 'block',
      ban_seconds: 600,
    },
  ],
});

const IP = '127.0.0.1';
const now = () => Math.floor(Date.now() / 1000);

/** What a captcha page carries: its signed token and its image. */
function captchaPage(answer: Answer): { token: string; expires: number; mac: string; image: Buffer } {
  expect(answer.status).toBe(503);
  const token = /name="rampart_captcha_token" value="(\d+)\.([\w-]+)"/.exec(answer.body);
  const image = /src="data:image\/bmp;base64,([A-Za-z0-9+/=]+)"/.exec(answer.body);
  expect(token).not.toBeNull();
  expect(image).not.toBeNull();
  return {
    token: `${token![1]}.${token![2]}`,
    expires: Number(token![1]),
    mac: token![2]!,
    image: Buffer.from(image![1]!, 'base64'),
  };
}

/** A POST with a body, on a fresh connection. */
function post(port: number, host: string, path: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      {
        host: IP,
        port,
        path,
        method: 'POST',
        agent: false,
        timeout: 10_000,
        headers: {
          host,
          connection: 'close',
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

const form = (token: string, answer: string) =>
  new URLSearchParams({ rampart_captcha_token: token, rampart_captcha_answer: answer }).toString();

describe('captcha challenge at the edge', () => {
  let edge: TestEdge;
  let origin: Origin;
  let key: string;

  beforeAll(async () => {
    edge = await createEdge();
    origin = await startOrigin('origin');
    const site = (id: number, domain: string) =>
      makeSite({
        id,
        domains: [domain],
        origins: [{ address: IP, port: origin.port, weight: 1, backup: false }],
        protection: guard(id),
      });
    const outcome = await edge.applier.apply(
      edge.snapshot({
        version: 2,
        sites: [site(1, 'captcha.test'), site(2, 'other.test')],
        protection: { rule_groups: [group(1), group(2)], acls: [], bans: [], unbans: [] },
      }),
    );
    expect(outcome.error).toBe('');
    expect(outcome).toMatchObject({ applied: true, errors: [] });
    key = (await readFile(edge.paths.challengeKeyFile, 'utf8')).trim();
  });
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  const get = (host: string, path: string, headers: Record<string, string> = {}) =>
    edgeRequest(edge.ports.http, { host, path, headers });
  const submit = (host: string, path: string, body: string, headers: Record<string, string> = {}) =>
    post(edge.ports.http, host, path, body, headers);
  const mac = (...parts: (string | number)[]) => createHmac('sha1', key).update(parts.join('|')).digest('base64url');

  /** The answer of a page of `site`, found as an attacker with the node's key would: all 10^5 candidates. */
  const solve = (page: { expires: number; mac: string }, site: number) => {
    const found: string[] = [];
    for (let n = 0; n < 100_000; n++) {
      const candidate = String(n).padStart(5, '0');
      if (mac(candidate, site, IP, page.expires) === page.mac) found.push(candidate);
    }
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  it('answers with a self-contained page holding a BMP image of the digits', async () => {
    const answer = await get('captcha.test', '/page');
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toContain('Are you human?');
    expect(answer.body).toMatch(/<label for="rampart-captcha">/);
    expect(answer.body).toMatch(
      /<input id="rampart-captcha" name="rampart_captcha_answer" autocomplete="off" inputmode="numeric"/,
    );
    expect(answer.body).toContain('<button type="submit">');
    expect(answer.body).toContain('<form method="post">');
    expect(answer.body).not.toMatch(/https?:\/\//);
    expect(origin.requests.some((r) => r.url === '/page')).toBe(false);

    const { image, expires } = captchaPage(answer);
    expect(expires).toBeGreaterThan(now());
    expect(image.subarray(0, 2).toString('latin1')).toBe('BM');
    expect(image.readUInt32LE(2)).toBe(image.length);
    const offset = image.readUInt32LE(10);
    expect(image.readUInt32LE(14)).toBe(40);
    const [width, height] = [image.readInt32LE(18), image.readInt32LE(22)];
    expect([width, height]).toEqual([150, 50]);
    expect(image.readUInt16LE(26)).toBe(1);
    expect(image.readUInt16LE(28)).toBe(8);
    expect(image.readUInt32LE(30)).toBe(0);
    const rowSize = Math.ceil(width / 4) * 4;
    expect(image.readUInt32LE(34)).toBe(rowSize * height);
    const colors = image.readUInt32LE(46);
    expect(offset).toBe(54 + 4 * colors);
    expect(image.length).toBe(offset + rowSize * height);
    const indices = new Set(image.subarray(offset));
    expect(Math.max(...indices)).toBeLessThan(colors);
    expect(indices.size).toBeGreaterThan(2);

    // Every page draws new digits.
    const again = captchaPage(await get('captcha.test', '/page'));
    expect(again.image.equals(image)).toBe(false);
    expect((await get('captcha.test', '/zh', { 'accept-language': 'zh-CN,zh;q=0.9' })).body).toContain(
      '请完成人机验证',
    );
  });

  it('refuses a wrong answer with a fresh image and says so', async () => {
    const page = captchaPage(await get('captcha.test', '/wrong'));
    const right = solve(page, 1);
    const wrong = String((Number(right) + 1) % 100_000).padStart(5, '0');
    const refused = await submit('captcha.test', '/wrong', form(page.token, wrong));
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(refused.body).toContain('Wrong answer');
    expect(captchaPage(refused).token).not.toBe(page.token);
    const zh = await submit('captcha.test', '/wrong', form(page.token, wrong), { 'accept-language': 'zh-CN' });
    expect(zh.body).toContain('答案错误');
    // A form without a token, or another body, is no answer at all: just the captcha.
    const plain = await submit('captcha.test', '/wrong', 'q=1');
    expect(plain.body).not.toContain('Wrong answer');
    captchaPage(plain);
    const json = await submit('captcha.test', '/wrong', '{"a":1}', { 'content-type': 'application/json' });
    expect(json.body).not.toContain('Wrong answer');
    captchaPage(json);
    expect(origin.requests.some((r) => r.url === '/wrong')).toBe(false);
  });

  it('the right answer sets the pass with a 303 to the same URL, and the pass reaches the origin', async () => {
    const page = captchaPage(await get('captcha.test', '/form?x=1'));
    const body = form(page.token, solve(page, 1));
    // Bodies over 4 KB are not read: the same right answer, padded, is only shown a new image.
    expect((await submit('captcha.test', '/form?x=1', `${body}&pad=${'x'.repeat(4096)}`)).status).toBe(503);

    const solved = await submit('captcha.test', '/form?x=1', body);
    expect(solved.status).toBe(303);
    expect(solved.headers.location).toBe('/form?x=1');
    const setCookie = String(solved.headers['set-cookie']);
    expect(setCookie).toMatch(/^rampart_captcha=\d+\.[\w-]+; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax$/);
    const cookie = setCookie.split(';')[0]!;
    const pass = /=(\d+)\./.exec(cookie)![1]!;
    expect(cookie).toBe(`rampart_captcha=${pass}.${mac('captcha', 1, IP, pass)}`);

    const through = await get('captcha.test', '/form?x=1', { cookie });
    expect(through.status).toBe(200);
    expect(JSON.parse(through.body)).toMatchObject({ origin: 'origin', url: '/form?x=1' });
    // Bound to the site: on another site the pass is a forged one, and the token answers nothing.
    expect((await get('other.test', '/elsewhere', { cookie })).status).toBe(403);
    const elsewhere = await submit('other.test', '/elsewhere', body);
    expect(elsewhere.status).toBe(503);
    expect(elsewhere.body).toContain('Wrong answer');
  });

  it('a browser shows the image, and typing its digits leads to the page asked for', async () => {
    const browser = await launchChromium(['captcha.test']);
    try {
      const page = await browser.newPage();
      await page.goto(`http://captcha.test:${edge.ports.http}/browser?a=1`);
      const image = page.getByRole('img', { name: 'Five digits to type' });
      const decoded = await image.evaluate((img) => {
        const { complete, naturalWidth } = img as unknown as { complete: boolean; naturalWidth: number };
        return complete && naturalWidth;
      });
      expect(decoded).toBe(150);
      const shown = captchaPage({ status: 503, headers: {}, body: await page.content() });
      await page.getByLabel('Digits in the image').fill(solve(shown, 1));
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForFunction('document.body.innerText.includes(\'"origin":"origin"\')', null, { timeout: 10_000 });
      expect(page.url()).toBe(`http://captcha.test:${edge.ports.http}/browser?a=1`);
      expect(origin.requests.filter((r) => r.url === '/browser?a=1').map((r) => r.method)).toEqual(['GET']);
    } finally {
      await browser.close();
    }
  });

  it('a forged pass fails the challenge; an expired pass or token is challenged again', async () => {
    const forged = await get('captcha.test', '/forged', { cookie: `rampart_captcha=${now() + 60}.AAAA` });
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('Access denied');

    const past = now() - 10;
    const expired = await get('captcha.test', '/expired', {
      cookie: `rampart_captcha=${past}.${mac('captcha', 1, IP, past)}`,
    });
    expect(expired.status).toBe(503);
    captchaPage(expired);

    const stale = await submit('captcha.test', '/stale', form(`${past}.${mac('12345', 1, IP, past)}`, '12345'));
    expect(stale.headers['set-cookie']).toBeUndefined();
    expect(stale.body).toContain('Wrong answer');
    captchaPage(stale);
    // The same answer with a token still in time passes: only the expiry refused it.
    const fresh = now() + 60;
    expect(
      (await submit('captcha.test', '/stale', form(`${fresh}.${mac('12345', 1, IP, fresh)}`, '12345'))).status,
    ).toBe(303);
  });

  it('writes each captcha decision to the access log', async () => {
    await eventually(
      async () => {
        const lines = (await readFile(edge.paths.accessLog, 'utf8'))
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { host: string; uri: string; status: number; block_reason: string });
        const find = (uri: string, status: number) =>
          lines.find((l) => l.host === 'captcha.test' && l.uri === uri && l.status === status)?.block_reason;
        const challenged = 'kind=challenge;action=challenge;group=1;match=11;filter=21;detail=captcha';
        expect(find('/page', 503)).toBe(challenged);
        expect(find('/wrong', 503)).toBe(challenged);
        expect(find('/form?x=1', 303)).toBe(challenged);
        expect(find('/form?x=1', 200)).toBe('');
        expect(find('/expired', 503)).toBe(challenged);
        expect(find('/forged', 403)).toBe(
          'kind=challenge;action=block;group=1;match=11;filter=21;detail=failed captcha',
        );
      },
      5000,
      250,
    );
  });
});
