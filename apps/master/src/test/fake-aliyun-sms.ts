import { createHmac, randomUUID } from 'node:crypto';
import { type FakeHttp, type SeenRequest, startFakeHttp } from './fake-http.ts';

export interface AliyunText {
  phone: string;
  signName: string;
  templateCode: string;
  /** TemplateParam, parsed. */
  param: unknown;
}

export interface FakeAliyunSms extends FakeHttp {
  texts: AliyunText[];
}

/** RFC 3986 encoding as Alibaba Cloud's signature documentation spells it (written apart from the master's). */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/** The error Alibaba Cloud answers to a badly signed RPC call, or null when the signature 1.0 holds. */
function signatureProblem(params: URLSearchParams, secrets: Record<string, string>, nonces: Set<string>) {
  const secret = secrets[params.get('AccessKeyId') ?? ''];
  if (!secret)
    return { status: 404, code: 'InvalidAccessKeyId.NotFound', message: 'Specified access key is not found.' };
  if (params.get('SignatureMethod') !== 'HMAC-SHA1' || params.get('SignatureVersion') !== '1.0') {
    return {
      status: 400,
      code: 'IncompleteSignature',
      message: 'The request signature does not conform to Aliyun standards.',
    };
  }
  const stamp = params.get('Timestamp') ?? '';
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(stamp) || Math.abs(Date.now() - Date.parse(stamp)) > 900_000) {
    return { status: 400, code: 'InvalidTimeStamp.Expired', message: 'Specified time stamp or date value is expired.' };
  }
  const nonce = params.get('SignatureNonce') ?? '';
  if (!nonce || nonces.has(nonce)) {
    return { status: 400, code: 'SignatureNonceUsed', message: 'Specified signature nonce was used already.' };
  }
  nonces.add(nonce);
  const pairs = [...params.entries()].filter(([name]) => name !== 'Signature');
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = pairs.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
  const expected = createHmac('sha1', `${secret}&`)
    .update(`GET&${encode('/')}&${encode(canonical)}`)
    .digest('base64');
  if (expected === params.get('Signature')) return null;
  return {
    status: 400,
    code: 'SignatureDoesNotMatch',
    message: 'Specified signature is not matched with our calculation.',
  };
}

/**
 * Alibaba Cloud SMS `SendSms` (dysmsapi, API 2017-05-25) on loopback: checks the signature with the
 * key's secret, its nonce and time, and the approved signature name and template, and answers as the
 * provider does (business refusals with HTTP 200 and an `isv.` code).
 */
export async function startFakeAliyunSms(
  secrets: Record<string, string>,
  approved: { signName: string; templateCode: string },
): Promise<FakeAliyunSms> {
  const texts: AliyunText[] = [];
  const nonces = new Set<string>();
  const answer = (status: number, Code: string, Message: string, extra: object = {}) => ({
    status,
    body: { Code, Message, RequestId: randomUUID().toUpperCase(), ...extra },
  });
  const fake = await startFakeHttp((request: SeenRequest) => {
    const url = new URL(request.url, 'http://fake');
    const params = url.searchParams;
    if (request.method !== 'GET' || url.pathname !== '/') return answer(404, 'InvalidAction.NotFound', 'only GET /');
    if (params.get('Action') !== 'SendSms') return answer(404, 'InvalidAction.NotFound', 'Specified api is not found.');
    if (params.get('Version') !== '2017-05-25' || params.get('Format') !== 'JSON') {
      return answer(400, 'InvalidVersion', 'Specified parameter Version is not valid.');
    }
    const problem = signatureProblem(params, secrets, nonces);
    if (problem) return answer(problem.status, problem.code, problem.message);
    const phone = params.get('PhoneNumbers') ?? '';
    if (!/^\d{6,16}$/.test(phone)) return answer(200, 'isv.MOBILE_NUMBER_ILLEGAL', 'invalid mobile number');
    if (params.get('SignName') !== approved.signName)
      return answer(200, 'isv.SMS_SIGNATURE_ILLEGAL', 'signature not approved');
    if (params.get('TemplateCode') !== approved.templateCode) {
      return answer(200, 'isv.SMS_TEMPLATE_ILLEGAL', 'template not approved');
    }
    let param: unknown;
    try {
      param = JSON.parse(params.get('TemplateParam') ?? '');
    } catch {
      return answer(200, 'isv.INVALID_JSON_PARAM', 'TemplateParam is not JSON');
    }
    texts.push({ phone, signName: approved.signName, templateCode: approved.templateCode, param });
    return answer(200, 'OK', 'OK', { BizId: `${Date.now()}^0` });
  });
  return { ...fake, texts };
}
