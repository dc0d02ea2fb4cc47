import type { Settings } from '../settings/settings.service.ts';
import { sendAliyunSms } from './sms-aliyun.ts';
import type { SmsAccount } from './sms-api.ts';
import { sendTencentSms } from './sms-tencent.ts';

/** The saved SMS provider, or undefined while none is chosen or a field it needs is empty. */
export function savedSmsAccount(settings: Settings): SmsAccount | undefined {
  if (settings.sms_provider === 'none') return undefined;
  const account: SmsAccount = {
    provider: settings.sms_provider,
    endpoint: settings.sms_endpoint,
    accessKeyId: settings.sms_access_key_id,
    secret: settings.sms_secret,
    signName: settings.sms_sign_name,
    templateCode: settings.sms_template_code,
    appId: settings.sms_app_id,
  };
  const needed = [account.accessKeyId, account.secret, account.signName, account.templateCode];
  if (account.provider === 'tencent') needed.push(account.appId);
  return needed.every((value) => value !== '') ? account : undefined;
}

/** Texts a one-time code through the provider's code template; throws with the provider's refusal. */
export function sendCodeSms(account: SmsAccount, phone: string, code: string): Promise<void> {
  return account.provider === 'aliyun' ? sendAliyunSms(account, phone, code) : sendTencentSms(account, phone, code);
}
