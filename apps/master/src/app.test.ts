import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { readConfig } from './config.ts';
import { createTestDatabase, DIALECTS } from './test/databases.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from './test/test-app.ts';

describe('the master', () => {
  let test: TestApp;
  beforeAll(async () => {
    const dashboardDir = mkdtempSync(join(tmpdir(), 'rampart-dist-'));
    mkdirSync(join(dashboardDir, 'assets'));
    writeFileSync(join(dashboardDir, 'index.html'), '<!doctype html><title>Rampart</title>');
    writeFileSync(join(dashboardDir, 'assets', 'app-1a2b.js'), 'console.log(1)');
    test = await startTestApp({ dialect: 'sqlite' }, { env: { RAMPART_DASHBOARD_DIR: dashboardDir } });
  });
  afterAll(async () => {
    await test.close();
  });

  it('answers an unknown /v1 route with 404 and the envelope', async () => {
    const result = await test.call('GET', '/v1/no-such-thing');
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: 'not_found', msg: 'no route for GET /v1/no-such-thing', data: null });
  });

  it('answers malformed JSON with invalid_param', async () => {
    const response = await test.app.inject({
      method: 'POST',
      url: '/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"account":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_param');
  });

  it('never leaks a stack or SQL in a 5xx', async () => {
    const broken = await startTestApp({ dialect: 'sqlite' });
    try {
      await broken.database.db.schema.dropTable('configs').execute();
      const result = await broken.call('GET', '/v1/common/sysinfo');
      expect(result.status).toBe(500);
      expect(result.body).toEqual({ code: 'internal_error', msg: 'internal server error', data: null });
    } finally {
      await broken.close();
    }
  });

  it('sends security headers and a request id: the dashboard policy on pages, the short one on calls', async () => {
    const result = await test.call('GET', '/v1/common/sysinfo');
    expect(result.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(result.headers['x-content-type-options']).toBe('nosniff');
    expect(result.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    const page = await test.app.inject({ method: 'GET', url: '/dashboard/site/list' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('sends them on every kind of answer: signed in, refused, invalid, unknown, files', async () => {
    const token = await test.login('admin', ADMIN_PASSWORD);
    const inject = (url: string, headers: Record<string, string> = {}) =>
      test.app.inject({ method: 'GET', url, headers });
    const calls = [
      await inject('/v1/user', { 'access-token': token }),
      await inject('/v1/user'),
      await inject('/v1/sites?page=0', { 'access-token': token }),
      await inject('/v1/no-such-thing'),
    ];
    expect(calls.map((answer) => answer.statusCode)).toEqual([200, 401, 400, 404]);
    for (const answer of calls) {
      expect(answer.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-request-id']).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
    }
    const ids = calls.map((answer) => answer.headers['x-request-id']);
    expect(new Set(ids).size).toBe(ids.length);
    const files = [
      await inject('/dashboard/'),
      await inject('/dashboard/assets/app-1a2b.js'),
      await inject('/dashboard/assets/gone-0000.js'),
      // No route at all (the files are GET and HEAD): the dashboard's not-found handler alone.
      await test.app.inject({ method: 'POST', url: '/dashboard/x' }),
    ];
    expect(files.map((answer) => answer.statusCode)).toEqual([200, 200, 404, 404]);
    for (const answer of files) {
      expect(answer.headers['content-security-policy']).toContain("script-src 'self'");
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('publishes OpenAPI 3 generated from the route schemas', async () => {
    const response = await test.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    const document = response.json() as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/v1/login', '/v1/user', '/v1/common/menu2']));
  });

  it('serves the dashboard with history fallback and redirects / to it', async () => {
    expect((await test.app.inject({ method: 'GET', url: '/' })).headers.location).toBe('/dashboard/');
    const deep = await test.app.inject({ method: 'GET', url: '/dashboard/site/list' });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('<title>Rampart</title>');
    const asset = await test.app.inject({ method: 'GET', url: '/dashboard/assets/app-1a2b.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });
});

describe.each(DIALECTS)('the first admin on $dialect', (target) => {
  it('gets a random password printed once and written to a 0600 file when none is configured', async () => {
    const database = await createTestDatabase(target);
    const app = await buildApp(readConfig({ RAMPART_DATA_DIR: database.dataDir }), { logger: false, database });
    try {
      const file = join(database.dataDir, 'initial-admin-password');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const password = readFileSync(file, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(16);
      const login = await app.inject({ method: 'POST', url: '/v1/login', payload: { account: 'admin', password } });
      expect(login.json().code).toBe(0);
    } finally {
      await app.close();
      await database.dispose();
    }
  });
});
