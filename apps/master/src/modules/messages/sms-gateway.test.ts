import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/databases.ts';
import { type FakeAliyunSms, startFakeAliyunSms } from '../../test/fake-aliyun-sms.ts';
import { type FakeTencentSms, startFakeTencentSms } from '../../test/fake-tencent-sms.ts';
import { ADMIN_PASSWORD, latestCode, startTestApp, type TestApp } from '../../test/test-app.ts';
import { createMessenger } from './messenger.ts';

const SMS = '/v1/configs/global-0-system-sms';
const KEY = { id: 'LTAI-sms-key', secret: 'sms-secret-90ab' };
const ALIYUN = { signName: 'Shop', templateCode: 'SMS_154950909' };
const TENCENT = { appId: '1400006666', signName: 'Shop', templateId: '449739' };

const sendRow = (test: TestApp, target: string) =>
  test.database.db.selectFrom('message_sends').selectAll().where('target', '=', target).executeTakeFirstOrThrow();

describe.each(DIALECTS)('phone codes through the SMS provider saved in /sys/setting on $dialect', (target) => {
  let aliyun: FakeAliyunSms;
  let tencent: FakeTencentSms;
  let test: TestApp;
  let admin: string;
  const save = (settings: object) =>
    test.call('PUT', SMS, {
      token: admin,
      body: {
        sms_provider: 'none',
        sms_endpoint: '',
        sms_access_key_id: KEY.id,
        sms_secret: KEY.secret,
        sms_sign_name: 'Shop',
        sms_template_code: '',
        sms_app_id: '',
        ...settings,
      },
    });
  const saveAliyun = (settings: object = {}) =>
    save({ sms_provider: 'aliyun', sms_endpoint: aliyun.url, sms_template_code: ALIYUN.templateCode, ...settings });
  const saveTencent = (settings: object = {}) =>
    save({
      sms_provider: 'tencent',
      sms_endpoint: tencent.url,
      sms_template_code: TENCENT.templateId,
      sms_app_id: TENCENT.appId,
      ...settings,
    });
  const sendCode = (phone: string) => test.call('POST', '/v1/phone-captcha', { body: { phone, purpose: 'register' } });
  const phoneCode = async () =>
    ((await test.call('GET', '/v1/common/register-info')).body.data as { phone_code: boolean }).phone_code;

  beforeEach(async () => {
    [aliyun, tencent] = await Promise.all([
      startFakeAliyunSms({ [KEY.id]: KEY.secret }, ALIYUN),
      startFakeTencentSms({ [KEY.id]: KEY.secret }, TENCENT),
    ]);
    test = await startTestApp(target, { background: false, codeChannels: false });
    admin = await test.login('admin', ADMIN_PASSWORD);
  });
  afterEach(async () => {
    await test.close();
    await Promise.all([aliyun.close(), tencent.close()]);
  });

  it('texts the code through Aliyun SendSms as the template parameter', async () => {
    expect(await phoneCode()).toBe(false);
    expect((await saveAliyun()).body.code).toBe(0);
    expect(await phoneCode()).toBe(true);
    expect((await sendCode('+8613800138000')).body.code).toBe(0);
    const code = await latestCode(test, '+8613800138000');
    expect(aliyun.texts).toEqual([{ phone: '8613800138000', ...ALIYUN, param: { code } }]);
    expect(await sendRow(test, '+8613800138000')).toMatchObject({ status: 'sent', error: '' });
  });

  it('records an Aliyun refusal of a wrong secret, and of a template it did not approve, as failed', async () => {
    await saveAliyun({ sms_secret: 'not-the-secret' });
    await sendCode('13800138001');
    expect(await sendRow(test, '13800138001')).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('SignatureDoesNotMatch'),
    });
    await saveAliyun({ sms_template_code: 'SMS_000000' });
    await sendCode('13800138002');
    expect(await sendRow(test, '13800138002')).toMatchObject({
      status: 'failed',
      error: 'aliyun refused the SMS: isv.SMS_TEMPLATE_ILLEGAL: template not approved',
    });
    expect(aliyun.texts).toEqual([]);
  });

  it('texts the code through Tencent Cloud SendSms, and offers it only with the application id', async () => {
    expect((await saveTencent({ sms_app_id: '' })).body.code).toBe(0);
    expect(await phoneCode()).toBe(false);
    await saveTencent();
    expect(await phoneCode()).toBe(true);
    expect((await sendCode('13800138000')).body.code).toBe(0);
    const code = await latestCode(test, '13800138000');
    expect(tencent.texts).toEqual([
      {
        phone: '+8613800138000',
        appId: TENCENT.appId,
        signName: TENCENT.signName,
        templateId: TENCENT.templateId,
        params: [code],
      },
    ]);
    expect(await sendRow(test, '13800138000')).toMatchObject({ status: 'sent', error: '' });
  });

  it('records a Tencent Cloud refusal of a wrong secret, and of a template it did not approve, as failed', async () => {
    await saveTencent({ sms_secret: 'not-the-secret' });
    await sendCode('13800138001');
    expect(await sendRow(test, '13800138001')).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('AuthFailure.SignatureFailure'),
    });
    await saveTencent({ sms_template_code: '100000' });
    await sendCode('13800138002');
    expect(await sendRow(test, '13800138002')).toMatchObject({
      status: 'failed',
      error:
        'tencent refused the SMS: FailedOperation.TemplateIncorrectOrUnapproved: template is incorrect or unapproved',
    });
    expect(tencent.texts).toEqual([]);
  });

  it('keeps a text without a code in the outbox: the provider sends only its code template', async () => {
    await saveAliyun();
    const messenger = createMessenger({ db: test.database.db, log: test.app.log, smtpFrom: 'test@localhost' });
    const status = await messenger.send({
      channel: 'sms',
      target: '13800138003',
      subject: 'Balance low',
      body: 'Balance low: Top up soon',
    });
    expect(status).toBe('outbox');
    expect(aliyun.texts).toEqual([]);
  });
});
