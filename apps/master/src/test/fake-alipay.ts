import { createSign, createVerify, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The Alipay open platform gateway for alipay.trade.precreate, alipay.trade.close (a paid trade is
 * not closed: ACQ.TRADE_STATUS_ERROR), alipay.trade.query and alipay.trade.refund (one refund per
 * out_request_no, never more than the trade), written apart from the master's client:
 * the request's RSA2 sign is verified with the application's public key, answers are signed with
 * the Alipay key over the exact text of the response member, and notifications are built as Alipay
 * posts them (form-encoded, RSA2 over the sorted parameters without sign and sign_type).
 */

export interface AlipayKeys {
  appId: string;
  appPrivateKeyPem: string;
  appPublicKey: KeyObject;
  alipayPrivateKey: KeyObject;
  alipayPublicKeyPem: string;
}

export interface AlipayPrecreateSeen {
  out_trade_no: string;
  total_amount: string;
  notify_url: string;
}

export interface AlipayRefundSeen {
  out_trade_no: string;
  out_request_no: string;
  refund_amount: string;
  refund_reason: string;
}

export interface FakeAlipay {
  url: string;
  keys: AlipayKeys;
  precreates: AlipayPrecreateSeen[];
  refusals: string[];
  /** Refunds made, one per out_request_no however often it was asked. */
  refunds: AlipayRefundSeen[];
  /** Refund requests received, repeats included. */
  refundCalls: number;
  /** Set to refuse the refunds asked from now on (a business failure with this sub_code and sub_msg). */
  refuseRefunds: { sub_code: string; sub_msg: string } | null;
  /** The total of each trade, as the gateway knows it when asked to refund (yuan). */
  trades: Map<string, string>;
  /** The out_trade_no of each alipay.trade.close request received. */
  closes: string[];
  /** The payer pays a precreated trade (as scanning its code does): closing it is refused from then on. */
  pay(outTradeNo: string, tradeNo: string): void;
  /** A form-encoded notification of a trade: what Alipay posts to the notify_url. */
  notification(
    trade: { out_trade_no: string; total_amount: string; trade_no: string; trade_status?: string; app_id?: string },
    options?: { signWith?: KeyObject },
  ): string;
  close(): Promise<void>;
}

export function makeAlipayKeys(): AlipayKeys {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    appId: '2021000117600000',
    appPrivateKeyPem: app.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    appPublicKey: app.publicKey,
    alipayPrivateKey: alipay.privateKey,
    // As the open platform shows it: the base64 body alone, without the PEM lines.
    alipayPublicKeyPem: alipay.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

const sortedText = (params: Map<string, string>, leaveOut: string[]) =>
  [...params]
    .filter(([name, value]) => !leaveOut.includes(name) && value !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');

const sign = (key: KeyObject, text: string) => createSign('RSA-SHA256').update(text, 'utf8').sign(key, 'base64');

export async function startFakeAlipay(keys = makeAlipayKeys()): Promise<FakeAlipay> {
  const precreates: AlipayPrecreateSeen[] = [];
  const refusals: string[] = [];
  const refunds: AlipayRefundSeen[] = [];
  const trades = new Map<string, string>();
  const closes: string[] = [];
  /** Each trade's status (WAIT_BUYER_PAY, TRADE_SUCCESS, TRADE_CLOSED) and trade_no once paid. */
  const statuses = new Map<string, { status: string; trade_no?: string }>();
  const state = { refundCalls: 0, refuseRefunds: null as FakeAlipay['refuseRefunds'] };
  const cents = (yuan: string) => Math.round(Number(yuan) * 100);
  const reply = (member: string, body: object, signed = true) => {
    const inner = JSON.stringify(body);
    const signPart = signed ? `,"sign":${JSON.stringify(sign(keys.alipayPrivateKey, inner))}` : '';
    return `{"${member}":${inner}${signPart}}`;
  };
  const answer = (url: string, body: string): string => {
    const params = new Map([...new URL(url, 'http://fake').searchParams, ...new URLSearchParams(body)]);
    const method = params.get('method') ?? '';
    const member = `${method.replaceAll('.', '_')}_response`;
    const refuse = (subCode: string, subMsg: string) => {
      refusals.push(`${subCode}: ${subMsg}`);
      return reply(member, { code: '40002', msg: 'Invalid Arguments', sub_code: subCode, sub_msg: subMsg }, false);
    };
    if (params.get('app_id') !== keys.appId) return refuse('isv.invalid-app-id', 'app_id is unknown');
    if (params.get('sign_type') !== 'RSA2' || params.get('charset') !== 'utf-8')
      return refuse('isv.invalid-signature-type', 'sign_type must be RSA2');
    const signed = createVerify('RSA-SHA256')
      .update(sortedText(params, ['sign']), 'utf8')
      .verify(keys.appPublicKey, Buffer.from(params.get('sign') ?? '', 'base64'));
    if (!signed) return refuse('isv.invalid-signature', 'the sign does not verify');
    const biz = JSON.parse(params.get('biz_content') ?? '{}') as Record<string, string>;
    if (method === 'alipay.trade.refund') {
      state.refundCalls++;
      if (!biz.out_trade_no || !biz.out_request_no || !/^\d+\.\d{2}$/.test(biz.refund_amount ?? ''))
        return refuse('isv.missing-parameters', 'out_trade_no, out_request_no and refund_amount are required');
      const failed = (subCode: string, subMsg: string) =>
        reply(member, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });
      if (state.refuseRefunds) return failed(state.refuseRefunds.sub_code, state.refuseRefunds.sub_msg);
      const total = trades.get(biz.out_trade_no);
      if (total === undefined) return failed('ACQ.TRADE_NOT_EXIST', '交易不存在');
      const ofTrade = refunds.filter((entry) => entry.out_trade_no === biz.out_trade_no);
      let made = ofTrade.find((entry) => entry.out_request_no === biz.out_request_no);
      const fresh = made === undefined;
      if (!made) {
        const before = ofTrade.reduce((sum, entry) => sum + cents(entry.refund_amount), 0);
        if (before + cents(biz.refund_amount ?? '0') > cents(total))
          return failed('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', '退款金额超限');
        made = {
          out_trade_no: biz.out_trade_no,
          out_request_no: biz.out_request_no,
          refund_amount: biz.refund_amount ?? '',
          refund_reason: biz.refund_reason ?? '',
        };
        refunds.push(made);
      }
      const refundFee = refunds
        .filter((entry) => entry.out_trade_no === biz.out_trade_no)
        .reduce((sum, entry) => sum + cents(entry.refund_amount), 0);
      return reply(member, {
        code: '10000',
        msg: 'Success',
        trade_no: `2026112522001${biz.out_trade_no.slice(0, 8)}`,
        out_trade_no: biz.out_trade_no,
        buyer_logon_id: '159****5620',
        // 'N' when the same out_request_no asked again: no money moved this time.
        fund_change: fresh ? 'Y' : 'N',
        refund_fee: (refundFee / 100).toFixed(2),
      });
    }
    if (method === 'alipay.trade.close' || method === 'alipay.trade.query') {
      const failed = (subCode: string, subMsg: string) =>
        reply(member, { code: '40004', msg: 'Business Failed', sub_code: subCode, sub_msg: subMsg });
      const outTradeNo = biz.out_trade_no ?? '';
      if (method === 'alipay.trade.close') closes.push(outTradeNo);
      const trade = statuses.get(outTradeNo);
      if (!trade) return failed('ACQ.TRADE_NOT_EXIST', '交易不存在');
      if (method === 'alipay.trade.query')
        return reply(member, {
          code: '10000',
          msg: 'Success',
          out_trade_no: outTradeNo,
          trade_status: trade.status,
          total_amount: trades.get(outTradeNo) ?? '0.00',
          ...(trade.trade_no && { trade_no: trade.trade_no, buyer_logon_id: '159****5620' }),
        });
      if (trade.status !== 'WAIT_BUYER_PAY') return failed('ACQ.TRADE_STATUS_ERROR', '交易状态不合法');
      trade.status = 'TRADE_CLOSED';
      return reply(member, { code: '10000', msg: 'Success', out_trade_no: outTradeNo, trade_no: '' });
    }
    if (method !== 'alipay.trade.precreate') return refuse('isv.invalid-method', 'unknown method');
    if (!biz.out_trade_no || !/^\d+\.\d{2}$/.test(biz.total_amount ?? '') || !biz.subject)
      return refuse('isv.missing-parameters', 'out_trade_no, total_amount and subject are required');
    trades.set(biz.out_trade_no, biz.total_amount ?? '0.00');
    statuses.set(biz.out_trade_no, { status: 'WAIT_BUYER_PAY' });
    precreates.push({
      out_trade_no: biz.out_trade_no,
      total_amount: biz.total_amount ?? '',
      notify_url: params.get('notify_url') ?? '',
    });
    return reply(member, {
      code: '10000',
      msg: 'Success',
      out_trade_no: biz.out_trade_no,
      qr_code: `https://qr.alipay.com/bax0${randomBytes(8).toString('hex')}`,
    });
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const ok = req.method === 'POST' && req.url?.startsWith('/gateway.do');
      res
        .writeHead(ok ? 200 : 404, { 'content-type': 'text/html;charset=utf-8' })
        .end(ok ? answer(req.url ?? '', body) : 'not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/gateway.do`,
    keys,
    precreates,
    refusals,
    refunds,
    trades,
    closes,
    pay(outTradeNo, tradeNo) {
      const trade = statuses.get(outTradeNo);
      if (!trade) throw new Error(`trade ${outTradeNo} was not precreated`);
      trade.status = 'TRADE_SUCCESS';
      trade.trade_no = tradeNo;
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
    notification(trade, options = {}) {
      const params = new Map<string, string>([
        ['notify_time', '2026-11-25 20:00:00'],
        ['notify_type', 'trade_status_sync'],
        ['notify_id', randomBytes(16).toString('hex')],
        ['charset', 'utf-8'],
        ['version', '1.0'],
        ['app_id', trade.app_id ?? keys.appId],
        ['trade_no', trade.trade_no],
        ['out_trade_no', trade.out_trade_no],
        ['trade_status', trade.trade_status ?? 'TRADE_SUCCESS'],
        ['total_amount', trade.total_amount],
        ['receipt_amount', trade.total_amount],
        ['buyer_logon_id', '159****5620'],
        ['subject', 'Rampart 充值'],
        ['gmt_payment', '2026-11-25 20:00:00'],
      ]);
      params.set('sign', sign(options.signWith ?? keys.alipayPrivateKey, sortedText(params, ['sign', 'sign_type'])));
      params.set('sign_type', 'RSA2');
      return new URLSearchParams([...params]).toString();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
