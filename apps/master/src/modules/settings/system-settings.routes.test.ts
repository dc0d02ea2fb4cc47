import { SECRET_MASK, SYSTEM_SETTING_GROUPS } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, addUser, startTestApp, type TestApp } from '../../test/test-app.ts';
import { loadSettings, smtpTransport } from './settings.service.ts';

const SITE = '/v1/configs/global-0-system-site';
const SMTP = '/v1/configs/global-0-system-smtp';
const HOUR_MS = 60 * 60 * 1000;

const smtp = {
  smtp_host: 'mail.example.com',
  smtp_port: 465,
  smtp_secure: true,
  smtp_username: 'mailer',
  smtp_password: 'smtp-pass-7e1f',
  smtp_from: 'Shop <no-reply@example.com>',
};

describe.each(DIALECTS)('system settings on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeEach(async () => {
    test = await startTestApp(target, { background: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
  });

  it('saves the site name and footer, and the public system info answers them', async () => {
    const site = {
      site_name: 'Edge Shield',
      logo_url: 'https://cdn.example.com/logo.png',
      footer_link: 'https://example.com/about',
      footer_copyright: '© 2026 Example Ltd',
    };
    expect((await test.call('PUT', SITE, { token: admin, body: site })).body).toMatchObject({ code: 0, data: site });
    expect((await test.call('GET', SITE, { token: admin })).body.data).toEqual(site);
    expect((await test.call('GET', '/v1/common/sysinfo')).body.data).toEqual({
      footer_link: site.footer_link,
      footer_copyright: site.footer_copyright,
    });
    expect((await test.call('GET', '/v1/site-sys-config')).body.data).toMatchObject({
      site_name: 'Edge Shield',
      logo_url: site.logo_url,
    });
    // DELETE goes back to the defaults.
    expect((await test.call('DELETE', SITE, { token: admin })).body.data).toMatchObject({ site_name: 'Rampart' });
    expect((await test.call('GET', '/v1/site-sys-config')).body.data).toMatchObject({ site_name: 'Rampart' });
  });

  it('never answers a saved secret, and keeps it when the mask is sent back', async () => {
    const saved = await test.call('PUT', SMTP, { token: admin, body: smtp });
    expect(saved.body.data).toEqual({ ...smtp, smtp_password: SECRET_MASK });
    expect((await test.call('GET', SMTP, { token: admin })).body.data).toMatchObject({ smtp_password: SECRET_MASK });
    const list = await test.call('GET', '/v1/configs?type=system', { token: admin });
    expect(JSON.stringify(list.body)).not.toContain(smtp.smtp_password);
    expect((list.body.data as { total: number }).total).toBe(Object.keys(SYSTEM_SETTING_GROUPS).length);

    await test.call('PUT', SMTP, { token: admin, body: { ...smtp, smtp_port: 2465, smtp_password: SECRET_MASK } });
    const fallback = { from: 'Rampart <no-reply@localhost>' };
    expect(await smtpTransport(test.database.db, fallback)).toEqual({
      transport: {
        host: 'mail.example.com',
        port: 2465,
        secure: true,
        auth: { user: 'mailer', pass: smtp.smtp_password },
      },
      from: smtp.smtp_from,
    });
    const log = await test.database.db.selectFrom('op_logs').select('changes').execute();
    expect(log).toHaveLength(2);
    expect(JSON.stringify(log)).not.toContain(smtp.smtp_password);
    // Sealed at rest: the stored row holds neither the password nor anything of it in the clear, and
    // sending the mask back kept it sealed once (not sealed again: the transport above got it back).
    const rows = await test.database.db.selectFrom('configs').select('value').where('name', '=', 'smtp').execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.value).not.toContain(smtp.smtp_password);
    expect(JSON.parse(rows[0]?.value ?? '{}')).toMatchObject({ smtp_password: expect.stringMatching(/^sealed:v1\./) });

    // An empty host: the server the master was started with.
    await test.call('DELETE', SMTP, { token: admin });
    expect(await smtpTransport(test.database.db, { url: 'smtp://127.0.0.1:2525', ...fallback })).toEqual({
      transport: 'smtp://127.0.0.1:2525',
      from: fallback.from,
    });
  });

  it('names the key, the field and the rule of what it refuses', async () => {
    const empty = await test.call('PUT', SITE, {
      token: admin,
      body: { site_name: '', logo_url: '', footer_link: '', footer_copyright: '' },
    });
    expect(empty.body.code).toBe('invalid_param');
    expect(empty.body.msg).toContain('body/site_name');
    const link = await test.call('PUT', SITE, {
      token: admin,
      body: { site_name: 'x', logo_url: '', footer_link: 'javascript:alert(1)', footer_copyright: '' },
    });
    expect(link.body.msg).toContain('body/footer_link');
    const extra = await test.call('PUT', SMTP, { token: admin, body: { ...smtp, smtp_tls: true } });
    expect(extra.body.msg).toBe('body/smtp_tls: is not an accepted field');
    const port = await test.call('PUT', SMTP, { token: admin, body: { ...smtp, smtp_port: 70000 } });
    expect(port.body.msg).toContain('body/smtp_port');
    const locale = await test.call('PUT', '/v1/configs/global-0-system-locale', {
      token: admin,
      body: { default_language: 'fr-FR', languages: ['zh-CN'] },
    });
    expect(locale.body.msg).toContain('body/default_language');
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const unknown = await test.call(method, '/v1/configs/global-0-system-nothing', {
        token: admin,
        body: method === 'PUT' ? {} : undefined,
      });
      expect(unknown.body, method).toMatchObject({
        code: 'not_found',
        msg: 'config global-0-system-nothing does not exist',
      });
    }
  });

  it('is for admins holding admin:sys only', async () => {
    const alice = await addUser(test, 'alice');
    const body = { username: 'ops', password: 'ops-pass-1', type: 1, access: ['admin:node'] };
    expect((await test.call('POST', '/v1/users', { token: admin, body })).body.code).toBe(0);
    const ops = await test.login('ops', 'ops-pass-1');
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const payload = method === 'PUT' ? smtp : undefined;
      const customer = await test.call(method, SMTP, { token: alice, body: payload });
      expect(customer.body, method).toMatchObject({ code: 'forbidden', msg: 'this needs an administrator' });
      const staff = await test.call(method, SMTP, { token: ops, body: payload });
      expect(staff.body, method).toMatchObject({ code: 'forbidden', msg: 'this needs the admin:sys permission' });
    }
    expect((await test.call('GET', '/v1/configs?type=system', { token: alice })).body.data).toEqual({
      list: [],
      total: 0,
    });
    // Whether customers need a package: the same code guards it, and only it changes the rule.
    const business = '/v1/configs/global-0-system-business';
    const off = { require_package: false };
    expect((await test.call('PUT', business, { token: alice, body: off })).body.code).toBe('forbidden');
    expect((await test.call('PUT', business, { token: ops, body: off })).body).toMatchObject({
      code: 'forbidden',
      msg: 'this needs the admin:sys permission',
    });
    expect((await test.call('GET', business, { token: admin })).body.data).toEqual({ require_package: false });
    const on = await test.call('PUT', business, { token: admin, body: { require_package: true } });
    expect(on.body).toMatchObject({ code: 0, data: { require_package: true } });
    expect((await loadSettings(test.database.db)).require_package).toBe(true);
  });

  it('requires a package of customers by default', async () => {
    const fresh = await startTestApp(target, { background: false, requirePackage: true });
    try {
      const root = await fresh.login('admin', ADMIN_PASSWORD);
      const business = await fresh.call('GET', '/v1/configs/global-0-system-business', { token: root });
      expect(business.body.data).toEqual({ require_package: true });
    } finally {
      await fresh.close();
    }
  });

  it('applies registration, session length and password policy where they are used', async () => {
    await test.call('PUT', '/v1/configs/global-0-system-register', {
      token: admin,
      body: {
        register_open: false,
        register_email: 'optional',
        register_phone: 'hidden',
        register_qq: 'required',
        agreement_url: '',
      },
    });
    expect((await test.call('GET', '/v1/common/register-info')).body.data).toEqual({
      open: false,
      fields: { email: 'optional', phone: 'hidden', qq: 'required' },
      agreement_url: '',
      phone_code: true,
      email_code: true,
    });

    await test.call('PUT', '/v1/configs/global-0-system-session', { token: admin, body: { session_ttl_hours: 2 } });
    const before = Date.now();
    const login = await test.call('POST', '/v1/login', { body: { account: 'admin', password: ADMIN_PASSWORD } });
    const expires = Date.parse((login.body.data as { expires_at: string }).expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 2 * HOUR_MS);
    expect(expires).toBeLessThan(before + 3 * HOUR_MS);

    const policy = {
      password_min_length: 10,
      password_require_letter: true,
      password_require_digit: true,
      password_require_symbol: false,
    };
    await test.call('PUT', '/v1/configs/global-0-system-password', { token: admin, body: policy });
    const alice = await addUser(test, 'alice');
    const weak = await test.call('PUT', '/v1/user', {
      token: alice,
      body: { old_password: 'alice-pass', password: 'only-letters' },
    });
    expect(weak.body).toMatchObject({ code: 'invalid_param', msg: 'password: must contain a digit' });
    const short = await test.call('PUT', '/v1/user', {
      token: alice,
      body: { old_password: 'alice-pass', password: 'abc-123' },
    });
    expect(short.body.msg).toBe('password: must be at least 10 characters');
    const strong = await test.call('PUT', '/v1/user', {
      token: alice,
      body: { old_password: 'alice-pass', password: 'letters-and-42' },
    });
    expect(strong.body.code).toBe(0);
    expect((await loadSettings(test.database.db)).password_min_length).toBe(10);

    await test.call('PUT', '/v1/configs/global-0-system-locale', {
      token: admin,
      body: { default_language: 'en-US', languages: ['en-US'] },
    });
    expect((await test.call('GET', '/v1/site-sys-config')).body.data).toMatchObject({
      default_language: 'en-US',
      languages: ['en-US'],
    });
  });
});
