import { randomUUID } from 'node:crypto';
import { type FakeHttp, type SeenRequest, startFakeHttp } from './fake-http.ts';
import { tc3SignatureProblem } from './fake-tc3.ts';

export interface TencentText {
  phone: string;
  appId: string;
  signName: string;
  templateId: string;
  /** TemplateParamSet as sent. */
  params: unknown;
}

export interface FakeTencentSms extends FakeHttp {
  texts: TencentText[];
}

const MESSAGES: Record<string, string> = {
  'AuthFailure.SignatureFailure':
    'The provided credentials could not be validated. Please check your signature is correct.',
  'AuthFailure.SecretIdNotFound': 'The SecretId is not found, please ensure that your SecretId is correct.',
};

/**
 * Tencent Cloud SMS `SendSms` (API 3.0, version 2021-01-11) on loopback: checks the TC3 signature
 * with the key's secret, the approved application, signature name and template, and answers as the
 * provider does: always HTTP 200, a refusal as Response.Error or as a number's send status.
 */
export async function startFakeTencentSms(
  secrets: Record<string, string>,
  approved: { appId: string; signName: string; templateId: string },
): Promise<FakeTencentSms> {
  const texts: TencentText[] = [];
  const reply = (body: object) => ({ status: 200, body: { Response: { ...body, RequestId: randomUUID() } } });
  const error = (Code: string, Message = MESSAGES[Code] ?? Code) => reply({ Error: { Code, Message } });
  const fake = await startFakeHttp((request: SeenRequest) => {
    if (request.method !== 'POST' || request.url !== '/') return error('InvalidAction', 'only POST / is served');
    if (request.headers['content-type'] !== 'application/json; charset=utf-8') {
      return error('InvalidParameter.ContentType', 'wrong content type');
    }
    if (request.headers['x-tc-action'] !== 'SendSms') return error('InvalidAction', 'the action is not SendSms');
    if (request.headers['x-tc-version'] !== '2021-01-11') return error('InvalidParameter.Version', 'wrong version');
    if (!request.headers['x-tc-region']) return error('MissingParameter', 'the region is missing');
    const problem = tc3SignatureProblem('sms', request, secrets);
    if (problem) return error(problem);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    if (body.SmsSdkAppId !== approved.appId)
      return error('InvalidParameterValue.SdkAppIdNotExist', 'SdkAppId not exist');
    if (body.SignName !== approved.signName) {
      return error('FailedOperation.SignatureIncorrectOrUnapproved', 'signature is incorrect or unapproved');
    }
    if (body.TemplateId !== approved.templateId) {
      return error('FailedOperation.TemplateIncorrectOrUnapproved', 'template is incorrect or unapproved');
    }
    const phones = Array.isArray(body.PhoneNumberSet) ? (body.PhoneNumberSet as unknown[]) : [];
    const statuses = phones.map((phone) => {
      const valid = typeof phone === 'string' && /^\+\d{6,16}$/.test(phone);
      if (valid) {
        texts.push({
          phone,
          appId: approved.appId,
          signName: approved.signName,
          templateId: approved.templateId,
          params: body.TemplateParamSet,
        });
      }
      return {
        SerialNo: valid ? randomUUID() : '',
        PhoneNumber: String(phone),
        Fee: valid ? 1 : 0,
        SessionContext: '',
        Code: valid ? 'Ok' : 'InvalidParameterValue.IncorrectPhoneNumber',
        Message: valid ? 'send success' : 'incorrect number format',
        IsoCode: valid ? 'CN' : '',
      };
    });
    return reply({ SendStatusSet: statuses });
  });
  return { ...fake, texts };
}
