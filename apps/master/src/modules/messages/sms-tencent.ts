import { TC3_CONTENT_TYPE, tc3Authorization } from '../../tencent-tc3.ts';
import { callSmsApi, type SmsAccount } from './sms-api.ts';

export const TENCENT_SMS_ENDPOINT = 'https://sms.tencentcloudapi.com/';
const SERVICE = 'sms';
const VERSION = '2021-01-11';
/** SMS is one service for all of China; the API still wants a region. */
const REGION = 'ap-guangzhou';

interface TencentAnswer {
  Response?: {
    Error?: { Code?: string; Message?: string };
    SendStatusSet?: { Code?: string; Message?: string; PhoneNumber?: string }[];
    RequestId?: string;
  };
}

/** A number as Tencent Cloud wants it, in E.164: an 11-digit mainland number gets +86. */
const e164 = (phone: string) => (phone.startsWith('+') ? phone : /^1\d{10}$/.test(phone) ? `+86${phone}` : `+${phone}`);

/**
 * Tencent Cloud SMS `SendSms` (API 3.0, version 2021-01-11): a JSON POST signed with
 * TC3-HMAC-SHA256, the code as the template's one parameter. A refusal comes as Response.Error, or
 * as a send status other than Ok for the number.
 */
export async function sendTencentSms(account: SmsAccount, phone: string, code: string): Promise<void> {
  const url = new URL(account.endpoint || TENCENT_SMS_ENDPOINT);
  const payload = JSON.stringify({
    PhoneNumberSet: [e164(phone)],
    SmsSdkAppId: account.appId,
    SignName: account.signName,
    TemplateId: account.templateCode,
    TemplateParamSet: [code],
  });
  const timestamp = Math.floor(Date.now() / 1000);
  const answer = (await callSmsApi('tencent', url, {
    method: 'POST',
    body: payload,
    headers: {
      authorization: tc3Authorization(
        SERVICE,
        { id: account.accessKeyId, secret: account.secret },
        url.host,
        payload,
        timestamp,
      ),
      'content-type': TC3_CONTENT_TYPE,
      'x-tc-action': 'SendSms',
      'x-tc-region': REGION,
      'x-tc-timestamp': String(timestamp),
      'x-tc-version': VERSION,
    },
  })) as TencentAnswer | null;
  const response = answer?.Response;
  if (!response) throw new Error('tencent answered without a Response');
  if (response.Error) {
    throw new Error(
      `tencent refused the SMS: ${response.Error.Code ?? 'no code'}: ${response.Error.Message ?? ''}`.trim(),
    );
  }
  const status = response.SendStatusSet?.[0];
  if (status?.Code !== 'Ok') {
    throw new Error(`tencent refused the SMS: ${status?.Code ?? 'no send status'}: ${status?.Message ?? ''}`.trim());
  }
}
