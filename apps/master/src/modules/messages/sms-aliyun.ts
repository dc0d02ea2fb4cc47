import { randomUUID } from 'node:crypto';
import { percentEncode, rpcSignature } from '../dnsapis/alidns.ts';
import { callSmsApi, type SmsAccount } from './sms-api.ts';

export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com/';
const VERSION = '2017-05-25';

interface AliyunAnswer {
  Code?: string;
  Message?: string;
  RequestId?: string;
  BizId?: string;
}

/**
 * Alibaba Cloud SMS `SendSms` (dysmsapi, API version 2017-05-25): an RPC call as a signed GET query
 * (HMAC-SHA1, signature version 1.0), the code as the template's `code` parameter. Any answer but
 * Code OK, whatever its HTTP status, is a refusal.
 */
export async function sendAliyunSms(account: SmsAccount, phone: string, code: string): Promise<void> {
  const params: Record<string, string> = {
    AccessKeyId: account.accessKeyId,
    Action: 'SendSms',
    Format: 'JSON',
    // Mainland numbers go with or without 86 in front; other countries as their code and number.
    PhoneNumbers: phone.replace(/^\+/, ''),
    SignName: account.signName,
    TemplateCode: account.templateCode,
    TemplateParam: JSON.stringify({ code }),
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    Version: VERSION,
  };
  const signature = rpcSignature(account.secret, 'GET', params);
  const url = new URL(account.endpoint || ALIYUN_SMS_ENDPOINT);
  url.search = Object.entries({ ...params, Signature: signature })
    .map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)
    .join('&');
  const answer = ((await callSmsApi('aliyun', url, { method: 'GET' })) ?? {}) as AliyunAnswer;
  if (answer.Code !== 'OK') {
    throw new Error(`aliyun refused the SMS: ${answer.Code ?? 'no code'}: ${answer.Message ?? ''}`.trim());
  }
}
