import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { ADMIN_PASSWORD, startTestApp, type TestApp } from '../../test/test-app.ts';
import { saveSetting } from '../settings/settings.service.ts';

describe.each(DIALECTS)('common calls on $dialect', (target) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await startTestApp(target);
  });
  afterAll(async () => {
    await test.close();
  });

  it('serves footer, captcha types, registration fields and site config without a token', async () => {
    expect((await test.call('GET', '/v1/common/sysinfo')).body).toEqual({
      code: 0,
      msg: 'ok',
      data: { footer_link: '', footer_copyright: '© Rampart' },
    });
    expect((await test.call('GET', '/v1/common/captcha-type')).body.data).toEqual({
      login: 'image',
      reset: ['email', 'phone'],
    });
    expect((await test.call('GET', '/v1/common/register-info')).body.data).toEqual({
      open: true,
      fields: { email: 'required', phone: 'optional', qq: 'optional' },
      agreement_url: '',
    });
    expect((await test.call('GET', '/v1/site-sys-config')).body.data).toEqual({
      site_name: 'Rampart',
      logo_url: '',
      register_open: true,
      default_language: 'zh-CN',
      languages: ['zh-CN', 'en-US'],
    });
  });

  it('serves operator translations for the languages asked, none by default', async () => {
    const body = { languages: ['zh-CN', 'en-US'] };
    expect((await test.call('POST', '/api/system/i18n/list', { body })).body).toEqual({ code: 0, msg: 'ok', data: {} });
    await saveSetting(test.database.db, 'i18n_overrides', { 'en-US': { layout: { title: 'Acme CDN' } } });
    expect((await test.call('POST', '/api/system/i18n/list', { body })).body.data).toEqual({
      'en-US': { layout: { title: 'Acme CDN' } },
    });
  });

  it('builds the menus for the signed-in admin and needs a token', async () => {
    expect((await test.call('GET', '/v1/common/menu2')).body.code).toBe('login_required');
    const token = await test.login('admin', ADMIN_PASSWORD);
    const menus = (await test.call('GET', '/v1/common/menu2', { token })).body.data as { sider: { name: string }[] };
    expect(menus.sider.map((item) => item.name)).toContain('admin-home');
  });

  it('keeps the outbox for admins only', async () => {
    const admin = await test.login('admin', ADMIN_PASSWORD);
    expect((await test.call('GET', '/v1/log/msg-send', { token: admin })).body).toMatchObject({
      code: 0,
      data: { total: 0 },
    });
    await test.call('POST', '/v1/email-captcha', { body: { email: 'carol@example.com' } });
    const code = (await test.call('GET', '/v1/log/msg-send', { token: admin })).body.data as {
      list: { body: string }[];
    };
    const captcha = code.list[0]?.body.match(/\d{6}/)?.[0];
    const user = await test.call('POST', '/v1/user', {
      body: { username: 'carol', password: 'carol-pass', email: 'carol@example.com', captcha, accept_agreement: true },
    });
    const token = (user.body.data as { access_token: string }).access_token;
    const denied = await test.call('GET', '/v1/log/msg-send', { token });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('forbidden');
  });
});
