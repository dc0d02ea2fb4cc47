import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { startFakeTencentSms } from '../../test/fake-tencent-sms.ts';
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
      phone_code: true,
      email_code: true,
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

describe.each(DIALECTS)('registration without a mail server or an SMS provider on $dialect', (target) => {
  let test: TestApp;
  let admin: string;
  beforeAll(async () => {
    test = await startTestApp(target, { codeChannels: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await test.close();
  });
  const register = '/v1/configs/global-0-system-register';
  const info = async () =>
    (await test.call('GET', '/v1/common/register-info')).body.data as { phone_code: boolean; email_code: boolean };

  it('says no code can be sent, refuses to send one, and registers a required phone without its code', async () => {
    expect(await info()).toMatchObject({ phone_code: false, email_code: false });
    const phone = await test.call('POST', '/v1/phone-captcha', { body: { phone: '13800138000', purpose: 'register' } });
    expect(phone.status).toBe(409);
    expect(phone.body).toEqual({
      code: 'channel_unavailable',
      msg: 'phone codes cannot be sent: no SMS provider is set up',
      data: null,
      params: { channel: 'sms' },
    });
    const email = await test.call('POST', '/v1/email-captcha', { body: { email: 'a@example.com', purpose: 'reset' } });
    expect(email.body).toMatchObject({ code: 'channel_unavailable', params: { channel: 'email' } });
    // Nothing went to the outbox.
    expect(await test.database.db.selectFrom('message_sends').select('id').execute()).toEqual([]);

    const fields = {
      register_open: true,
      register_email: 'required',
      register_phone: 'required',
      register_qq: 'optional',
      agreement_url: '',
    };
    expect((await test.call('PUT', register, { token: admin, body: fields })).body.code).toBe(0);
    const made = await test.call('POST', '/v1/user', {
      body: {
        username: 'nocode',
        password: 'nocode-pass-1',
        email: 'nocode@example.com',
        phone: '13800138001',
        accept_agreement: true,
      },
    });
    expect(made.body, JSON.stringify(made.body)).toMatchObject({ code: 0 });
    // The requirement itself still holds.
    const missing = await test.call('POST', '/v1/user', {
      body: { username: 'nophone', password: 'nophone-pass-1', email: 'nophone@example.com', accept_agreement: true },
    });
    expect(missing.body).toMatchObject({ code: 'invalid_param', params: { field: 'phone', rule: 'is required' } });
  });

  it('offers each channel once it is set up, and asks for its code again', async () => {
    const tencent = await startFakeTencentSms(
      { key: 'secret' },
      { appId: '1400000001', signName: 'Shop', templateId: 'SMS_1' },
    );
    onTestFinished(() => tencent.close());
    await saveSetting(test.database.db, 'smtp_host', 'mail.example.com');
    expect(await info()).toMatchObject({ phone_code: false, email_code: true });
    const withoutCode = await test.call('POST', '/v1/user', {
      body: {
        username: 'needcode',
        password: 'needcode-pass-1',
        email: 'needcode@example.com',
        phone: '13800138002',
        accept_agreement: true,
      },
    });
    expect(withoutCode.body.code).not.toBe(0);
    for (const [name, value] of [
      ['sms_provider', 'tencent'],
      ['sms_endpoint', tencent.url],
      ['sms_access_key_id', 'key'],
      ['sms_secret', 'secret'],
      ['sms_sign_name', 'Shop'],
      ['sms_template_code', 'SMS_1'],
    ] as const) {
      await saveSetting(test.database.db, name, value);
      expect((await info()).phone_code, name).toBe(false);
    }
    await saveSetting(test.database.db, 'sms_app_id', '1400000001');
    expect(await info()).toMatchObject({ phone_code: true, email_code: true });
    const sent = await test.call('POST', '/v1/phone-captcha', { body: { phone: '13800138003', purpose: 'register' } });
    expect(sent.body.code).toBe(0);
    expect(tencent.texts.map((text) => text.phone)).toEqual(['+8613800138003']);
  });
});
