import { execFileSync } from 'node:child_process';
import {
  createCipheriv,
  createSign,
  createVerify,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  X509Certificate,
} from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * WeChat Pay API v3 as a merchant meets it, written apart from the master's client: Native pre-orders,
 * closing and querying them (a paid order is not closed: ORDERPAID), refunds (one per out_refund_no, never more than the order) and the platform certificates
 * (GET /v3/certificates, each encrypted with the API v3 key; rotate() publishes a new one and signs
 * with it from then on, as WeChat Pay does before the old one expires)
 * whose Authorization (WECHATPAY2-SHA256-RSA2048) is verified with the merchant's public key, answers
 * signed with the platform key, and payment notifications built as WeChat Pay sends them
 * (AEAD_AES_256_GCM resource under the API v3 key, Wechatpay-* signature headers).
 */

export interface WxpayMerchant {
  mchid: string;
  appid: string;
  serialNo: string;
  privateKeyPem: string;
  publicKey: KeyObject;
  apiV3Key: string;
}

export interface WxpayPlatformKeys {
  privateKey: KeyObject;
  certPem: string;
  serial: string;
}

export interface WxpayPreorderSeen {
  out_trade_no: string;
  total: number;
  notify_url: string;
}

export interface WxpayRefundSeen {
  out_trade_no: string;
  out_refund_no: string;
  refund: number;
  total: number;
  reason: string;
  refund_id: string;
}

export interface FakeWxpay {
  url: string;
  merchant: WxpayMerchant;
  /** The platform key answers and notifications are signed with now. */
  platform: WxpayPlatformKeys;
  /** The certificates GET /v3/certificates lists. */
  published: WxpayPlatformKeys[];
  /** Publishes a new platform certificate and signs with it from now on; the old one stays listed. */
  rotate(): WxpayPlatformKeys;
  /** Takes a certificate off the list (as once it has expired). */
  retire(serial: string): void;
  /** GET /v3/certificates requests received. */
  certificateCalls: number;
  /** Set to sign answers with another key under the same serial (answers that are not WeChat Pay's). */
  forgeAnswersWith: KeyObject | null;
  preorders: WxpayPreorderSeen[];
  /** Refunds made, one per out_refund_no however often it was asked. */
  refunds: WxpayRefundSeen[];
  /** Refund requests received, repeats included. */
  refundCalls: number;
  /** Set to refuse the refunds asked from now on, as WeChat Pay does (an HTTP status with code and message). */
  refuseRefunds: { status: number; code: string; message: string } | null;
  /** Requests refused, with the reason (a bad signature shows here). */
  refusals: string[];
  /** The out_trade_no of each close order request received, with the mchid its body named. */
  closes: { out_trade_no: string; mchid: string }[];
  /** The payer pays a pre-ordered order (as scanning its code does): closing it is refused from then on. */
  pay(outTradeNo: string, transactionId: string): void;
  /** A notification of a paid order: the body and headers WeChat Pay posts. */
  notification(
    payment: { out_trade_no: string; total: number; transaction_id: string; trade_state?: string; currency?: string },
    options?: { timestamp?: number; signWith?: KeyObject; apiV3Key?: string; serial?: string },
  ): { body: string; headers: Record<string, string> };
  close(): Promise<void>;
}

const rsa = () => generateKeyPairSync('rsa', { modulusLength: 2048 });

/** A self-signed RSA certificate for `key`, made by openssl (node:crypto signs no certificates). */
function selfSigned(key: KeyObject, subject: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'rampart-wxpay-'));
  try {
    writeFileSync(join(dir, 'key.pem'), key.export({ type: 'pkcs8', format: 'pem' }));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-new',
        '-key',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-subj',
        subject,
        '-days',
        '30',
      ],
      { stdio: 'ignore' },
    );
    return readFileSync(join(dir, 'cert.pem'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A platform key pair and its certificate, as WeChat Pay issues one per rotation. */
export function makePlatformKeys(): WxpayPlatformKeys {
  const platformKeys = rsa();
  const certPem = selfSigned(platformKeys.privateKey, '/CN=Tenpay.com Root CA');
  return {
    privateKey: platformKeys.privateKey,
    certPem,
    serial: new X509Certificate(certPem).serialNumber.toUpperCase(),
  };
}

export function makeWxpayKeys(): { merchant: WxpayMerchant; platform: WxpayPlatformKeys } {
  const merchantKeys = rsa();
  return {
    merchant: {
      mchid: '1900000109',
      appid: 'wxd678efh567hg6787',
      serialNo: randomBytes(20).toString('hex').toUpperCase(),
      privateKeyPem: merchantKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: merchantKeys.publicKey,
      apiV3Key: randomBytes(16).toString('hex'),
    },
    platform: makePlatformKeys(),
  };
}

/** AEAD_AES_256_GCM under the API v3 key, the tag appended to the ciphertext, as WeChat Pay seals resources. */
function seal(apiV3Key: string, associatedData: string, plaintext: string) {
  const nonce = randomBytes(6).toString('hex');
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(apiV3Key), Buffer.from(nonce));
  cipher.setAAD(Buffer.from(associatedData));
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return {
    algorithm: 'AEAD_AES_256_GCM',
    ciphertext: sealed.toString('base64'),
    associated_data: associatedData,
    nonce,
  };
}

/** WeChat Pay's times: RFC 3339 in China Standard Time. */
const rfc3339 = (ms: number) => `${new Date(ms + 8 * 3600_000).toISOString().slice(0, 19)}+08:00`;

const sign = (key: KeyObject, text: string) => createSign('RSA-SHA256').update(text).sign(key, 'base64');

function signedHeaders(key: KeyObject, serial: string, body: string, timestamp: number) {
  const nonce = randomBytes(16).toString('hex');
  const ts = String(Math.floor(timestamp / 1000));
  return {
    'wechatpay-timestamp': ts,
    'wechatpay-nonce': nonce,
    'wechatpay-serial': serial,
    'wechatpay-signature': sign(key, `${ts}\n${nonce}\n${body}\n`),
    'wechatpay-signature-type': 'WECHATPAY2-SHA256-RSA2048',
  };
}

/** Why an Authorization header is not the merchant's, or null. */
function authorizationProblem(
  merchant: WxpayMerchant,
  request: { method: string; url: string; body: string; authorization: string },
) {
  const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(request.authorization);
  if (!match?.[1]) return 'no WECHATPAY2-SHA256-RSA2048 authorization';
  const fields = Object.fromEntries([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  if (fields.mchid !== merchant.mchid) return 'mchid does not match';
  if (fields.serial_no !== merchant.serialNo) return 'serial_no does not match';
  const timestamp = Number(fields.timestamp);
  if (!fields.nonce_str || Math.abs(Date.now() / 1000 - timestamp) > 300) return 'timestamp or nonce_str wrong';
  const text = `${request.method}\n${request.url}\n${fields.timestamp}\n${fields.nonce_str}\n${request.body}\n`;
  const valid = createVerify('RSA-SHA256')
    .update(text)
    .verify(merchant.publicKey, Buffer.from(fields.signature ?? '', 'base64'));
  return valid ? null : 'signature does not verify';
}

/** `publicKeyId`: sign as a merchant on platform public keys (Wechatpay-Serial names the key id, not the certificate). */
export async function startFakeWxpay(
  keys = makeWxpayKeys(),
  options: { publicKeyId?: string } = {},
): Promise<FakeWxpay> {
  const { merchant } = keys;
  const published = [keys.platform];
  let platform = keys.platform;
  const serial = () => options.publicKeyId ?? platform.serial;
  const preorders: WxpayPreorderSeen[] = [];
  const refusals: string[] = [];
  const refunds: WxpayRefundSeen[] = [];
  const closes: FakeWxpay['closes'] = [];
  /** Pre-ordered orders by out_trade_no: their total, trade_state and, once paid, transaction id. */
  const orders = new Map<string, { total: number; trade_state: string; transaction_id?: string }>();
  const state = {
    refundCalls: 0,
    certificateCalls: 0,
    refuseRefunds: null as FakeWxpay['refuseRefunds'],
    forgeAnswersWith: null as KeyObject | null,
  };
  const send = (res: ServerResponse, status: number, reply: object | null) => {
    const text = reply === null ? '' : JSON.stringify(reply);
    res
      .writeHead(status, {
        'content-type': 'application/json',
        ...signedHeaders(state.forgeAnswersWith ?? platform.privateKey, serial(), text, Date.now()),
      })
      .end(text);
  };
  const certificates = (res: ServerResponse) =>
    send(res, 200, {
      data: published.map((cert) => {
        const x509 = new X509Certificate(cert.certPem);
        return {
          serial_no: cert.serial,
          effective_time: rfc3339(new Date(x509.validFrom).getTime()),
          expire_time: rfc3339(new Date(x509.validTo).getTime()),
          encrypt_certificate: seal(merchant.apiV3Key, 'certificate', cert.certPem),
        };
      }),
    });
  const refund = (res: ServerResponse, body: string) => {
    state.refundCalls++;
    const asked = JSON.parse(body) as {
      out_trade_no?: string;
      out_refund_no?: string;
      reason?: string;
      amount?: { refund?: number; total?: number; currency?: string };
    };
    const amount = asked.amount ?? {};
    if (
      !asked.out_trade_no ||
      !/^[0-9A-Za-z_\-|*@]{1,64}$/.test(asked.out_refund_no ?? '') ||
      !Number.isInteger(amount.refund) ||
      !Number.isInteger(amount.total) ||
      amount.currency !== 'CNY'
    ) {
      refusals.push(`bad refund parameters ${body}`);
      return send(res, 400, { code: 'PARAM_ERROR', message: 'parameters are wrong' });
    }
    if (state.refuseRefunds) {
      const { status, code, message } = state.refuseRefunds;
      return send(res, status, { code, message });
    }
    let made = refunds.find((entry) => entry.out_refund_no === asked.out_refund_no);
    if (made && (made.refund !== amount.refund || made.out_trade_no !== asked.out_trade_no))
      return send(res, 400, { code: 'INVALID_REQUEST', message: 'out_refund_no already used with other parameters' });
    if (!made) {
      const before = refunds
        .filter((entry) => entry.out_trade_no === asked.out_trade_no)
        .reduce((sum, entry) => sum + entry.refund, 0);
      if (before + (amount.refund ?? 0) > (amount.total ?? 0))
        return send(res, 400, { code: 'INVALID_REQUEST', message: '申请退款金额超过订单可退金额' });
      made = {
        out_trade_no: asked.out_trade_no,
        out_refund_no: asked.out_refund_no ?? '',
        refund: amount.refund ?? 0,
        total: amount.total ?? 0,
        reason: asked.reason ?? '',
        refund_id: `50000${randomBytes(10).toString('hex')}`,
      };
      refunds.push(made);
    }
    return send(res, 200, {
      refund_id: made.refund_id,
      out_refund_no: made.out_refund_no,
      transaction_id: '',
      out_trade_no: made.out_trade_no,
      channel: 'ORIGINAL',
      user_received_account: '支付用户零钱',
      status: 'PROCESSING',
      create_time: new Date().toISOString(),
      funds_account: 'AVAILABLE',
      amount: {
        total: made.total,
        refund: made.refund,
        payer_total: made.total,
        payer_refund: made.refund,
        currency: 'CNY',
      },
    });
  };
  /** POST …/out-trade-no/{no}/close: 204, or ORDERPAID for an order paid already. */
  const closeOrder = (res: ServerResponse, outTradeNo: string, body: string) => {
    const { mchid } = JSON.parse(body) as { mchid?: string };
    closes.push({ out_trade_no: outTradeNo, mchid: mchid ?? '' });
    if (mchid !== merchant.mchid) return send(res, 400, { code: 'PARAM_ERROR', message: 'mchid is wrong' });
    const order = orders.get(outTradeNo);
    if (!order) return send(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    if (order.trade_state === 'SUCCESS')
      return send(res, 400, { code: 'ORDERPAID', message: '订单已支付，不能发起关单，请当作已支付的正常交易' });
    order.trade_state = 'CLOSED';
    return send(res, 204, null);
  };
  /** GET …/out-trade-no/{no}?mchid=: the order's trade_state, and its payment once paid. */
  const queryOrder = (res: ServerResponse, outTradeNo: string, mchid: string | null) => {
    if (mchid !== merchant.mchid) return send(res, 400, { code: 'PARAM_ERROR', message: 'mchid is wrong' });
    const order = orders.get(outTradeNo);
    if (!order) return send(res, 404, { code: 'ORDER_NOT_EXIST', message: '订单不存在' });
    return send(res, 200, {
      appid: merchant.appid,
      mchid: merchant.mchid,
      out_trade_no: outTradeNo,
      trade_type: 'NATIVE',
      trade_state: order.trade_state,
      ...(order.transaction_id && {
        transaction_id: order.transaction_id,
        success_time: new Date().toISOString(),
        amount: { total: order.total, payer_total: order.total, currency: 'CNY', payer_currency: 'CNY' },
      }),
    });
  };
  const byTradeNo = /^\/v3\/pay\/transactions\/out-trade-no\/([0-9A-Za-z_\-|*@]{6,32})(\/close)?(?:\?(.*))?$/;
  const answer = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const known = ['POST /v3/pay/transactions/native', 'POST /v3/refund/domestic/refunds', 'GET /v3/certificates'];
    const tradeCall = byTradeNo.exec(req.url ?? '');
    const isTradeCall = tradeCall !== null && req.method === (tradeCall[2] ? 'POST' : 'GET');
    if (!known.includes(`${req.method} ${req.url}`) && !isTradeCall)
      return send(res, 404, { code: 'NOT_FOUND', message: 'no such API' });
    if (req.url === '/v3/certificates') state.certificateCalls++;
    const problem = authorizationProblem(merchant, {
      method: req.method ?? '',
      url: req.url ?? '',
      body,
      authorization: String(req.headers.authorization ?? ''),
    });
    if (problem) {
      refusals.push(problem);
      return send(res, 401, { code: 'SIGN_ERROR', message: problem });
    }
    if (req.url === '/v3/certificates') return certificates(res);
    if (tradeCall?.[1] && isTradeCall)
      return tradeCall[2]
        ? closeOrder(res, tradeCall[1], body)
        : queryOrder(res, tradeCall[1], new URLSearchParams(tradeCall[3] ?? '').get('mchid'));
    if (req.url === '/v3/refund/domestic/refunds') return refund(res, body);
    const order = JSON.parse(body) as {
      appid?: string;
      mchid?: string;
      out_trade_no?: string;
      notify_url?: string;
      description?: string;
      amount?: { total?: number; currency?: string };
    };
    if (
      order.appid !== merchant.appid ||
      order.mchid !== merchant.mchid ||
      !order.out_trade_no ||
      !order.description ||
      !order.notify_url?.startsWith('https://') ||
      !Number.isInteger(order.amount?.total) ||
      (order.amount?.currency ?? 'CNY') !== 'CNY'
    ) {
      refusals.push(`bad parameters ${body}`);
      return send(res, 400, { code: 'PARAM_ERROR', message: 'parameters are wrong' });
    }
    preorders.push({ out_trade_no: order.out_trade_no, total: order.amount?.total ?? 0, notify_url: order.notify_url });
    orders.set(order.out_trade_no, { total: order.amount?.total ?? 0, trade_state: 'NOTPAY' });
    return send(res, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(6).toString('hex')}` });
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    merchant,
    get platform() {
      return platform;
    },
    published,
    rotate() {
      platform = makePlatformKeys();
      published.push(platform);
      return platform;
    },
    retire(retired) {
      const index = published.findIndex((cert) => cert.serial === retired);
      if (index >= 0) published.splice(index, 1);
    },
    get certificateCalls() {
      return state.certificateCalls;
    },
    get forgeAnswersWith() {
      return state.forgeAnswersWith;
    },
    set forgeAnswersWith(key) {
      state.forgeAnswersWith = key;
    },
    preorders,
    refusals,
    refunds,
    closes,
    pay(outTradeNo, transactionId) {
      const order = orders.get(outTradeNo);
      if (!order) throw new Error(`order ${outTradeNo} was not pre-ordered`);
      order.trade_state = 'SUCCESS';
      order.transaction_id = transactionId;
    },
    get refundCalls() {
      return state.refundCalls;
    },
    get refuseRefunds() {
      return state.refuseRefunds;
    },
    set refuseRefunds(refusal) {
      state.refuseRefunds = refusal;
    },
    notification(payment, options = {}) {
      const transaction = {
        mchid: merchant.mchid,
        appid: merchant.appid,
        out_trade_no: payment.out_trade_no,
        transaction_id: payment.transaction_id,
        trade_type: 'NATIVE',
        trade_state: payment.trade_state ?? 'SUCCESS',
        trade_state_desc: '支付成功',
        bank_type: 'OTHERS',
        success_time: new Date().toISOString(),
        payer: { openid: 'oUpF8uMuAJO_M2pxb1Q9zNjWeS6o' },
        amount: {
          total: payment.total,
          payer_total: payment.total,
          currency: payment.currency ?? 'CNY',
          payer_currency: 'CNY',
        },
      };
      const body = JSON.stringify({
        id: randomBytes(16).toString('hex'),
        create_time: new Date().toISOString(),
        resource_type: 'encrypt-resource',
        event_type: 'TRANSACTION.SUCCESS',
        summary: '支付成功',
        resource: {
          original_type: 'transaction',
          ...seal(options.apiV3Key ?? merchant.apiV3Key, 'transaction', JSON.stringify(transaction)),
        },
      });
      const headers = signedHeaders(
        options.signWith ?? platform.privateKey,
        options.serial ?? serial(),
        body,
        options.timestamp ?? Date.now(),
      );
      return { body, headers: { ...headers, 'content-type': 'application/json' } };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
