import type { IncomingMessage } from 'node:http';
import { WxpayNotification, WxpayNotifyAnswer } from '@rampart/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { policy } from '../../plugins/route-policy.ts';
import { alipayNotificationVerifies, yuanToCents } from './alipay.ts';
import { ALIPAY, readPaymentSettings, WXPAY } from './payment-settings.ts';
import { settleRecharge } from './settle.ts';
import { decryptResource, signedHeaders, type WxpayVerifier, wxpaySignatureProblem } from './wxpay.ts';
import { wxpayVerifier } from './wxpay-certs.ts';

const tags = ['payments'];

/** The body as it arrived: WeChat Pay signs these bytes, not a re-serialization of them. */
const rawBodies = new WeakMap<IncomingMessage, string>();

interface WxpayTransaction {
  mchid?: unknown;
  appid?: unknown;
  out_trade_no?: unknown;
  transaction_id?: unknown;
  trade_state?: unknown;
  amount?: { total?: unknown; currency?: unknown };
}

const header = (request: FastifyRequest) => (name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The providers' payment notifications: public (the providers hold no token), trusted only when
 * their signature verifies with the provider's key from the payment settings. A notification that
 * does not verify or does not match its order credits nothing and is logged.
 */
export async function paymentNotifyRoutes(app: App, { db, notifier }: AppContext) {
  await app.register(async (scope: App) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      rawBodies.set(request.raw, String(body));
      try {
        done(null, JSON.parse(String(body)));
      } catch {
        done(Object.assign(new Error('the body is not JSON'), { statusCode: 400 }), undefined);
      }
    });
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );

    scope.post(
      '/v1/wxpay/notify',
      {
        config: { policy: policy.public },
        attachValidation: true,
        schema: {
          tags,
          description:
            'WeChat Pay’s payment notification (public; verified with the platform certificate its Wechatpay-Serial names, an unknown serial downloading the certificates once, or the platform public key; decrypted with the API v3 key). Credits the order once.',
          body: WxpayNotification,
          response: { 200: WxpayNotifyAnswer, 400: WxpayNotifyAnswer, 401: WxpayNotifyAnswer },
        },
      },
      async (request, reply) => {
        const fail = (status: 400 | 401, message: string) => {
          request.log.warn({ route: '/v1/wxpay/notify' }, `WeChat Pay notification refused: ${message}`);
          return reply.status(status).send({ code: 'FAIL', message });
        };
        const settings = (await readPaymentSettings(db, WXPAY)).value;
        if (!settings.enabled) return fail(400, 'WeChat Pay is not enabled');
        let platform: WxpayVerifier;
        try {
          platform = wxpayVerifier(db, settings, request.log);
        } catch {
          return fail(400, 'the platform public key is not set');
        }
        const problem = await wxpaySignatureProblem(
          platform,
          signedHeaders(header(request)),
          rawBodies.get(request.raw) ?? '',
        );
        if (problem) return fail(401, problem);
        if (request.validationError) return fail(400, request.validationError.message);
        const notification = request.body;
        let transaction: WxpayTransaction;
        try {
          transaction = JSON.parse(decryptResource(settings.api_v3_key, notification.resource)) as WxpayTransaction;
        } catch {
          return fail(400, 'the resource does not decrypt with the API v3 key');
        }
        if (transaction === null || typeof transaction !== 'object')
          return fail(400, 'the resource is not a transaction');
        if (transaction.mchid !== settings.mchid || transaction.appid !== settings.appid)
          return fail(400, 'the transaction is for another merchant or app');
        if (transaction.trade_state !== 'SUCCESS')
          return fail(400, `trade_state is ${String(transaction.trade_state)}`);
        const total = transaction.amount?.total;
        if (transaction.amount?.currency !== 'CNY' || typeof total !== 'number' || !Number.isSafeInteger(total))
          return fail(400, 'the amount is not a whole number of CNY cents');
        if (typeof transaction.out_trade_no !== 'string' || typeof transaction.transaction_id !== 'string')
          return fail(400, 'out_trade_no or transaction_id is missing');
        const settled = await settleRecharge(
          { db, notifier, log: request.log },
          {
            channel: 'wxpay',
            outTradeNo: transaction.out_trade_no,
            amount: total,
            providerTxnId: transaction.transaction_id,
          },
        );
        if (!settled.ok) return reply.status(400).send({ code: 'FAIL', message: settled.reason });
        return reply.status(200).send({ code: 'SUCCESS' });
      },
    );

    scope.post(
      '/v1/alipay/notify',
      {
        config: { policy: policy.public },
        schema: {
          tags,
          description:
            'Alipay’s asynchronous notification (public, form-encoded; verified with the Alipay public key). Credits the order once; answers success or fail.',
          consumes: ['application/x-www-form-urlencoded'],
        },
      },
      async (request: FastifyRequest, reply: FastifyReply) => {
        reply.type('text/plain; charset=utf-8');
        const fail = (message: string) => {
          request.log.warn({ route: '/v1/alipay/notify' }, `Alipay notification refused: ${message}`);
          return reply.status(400).send('fail');
        };
        const body = request.body;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return fail('the body is not a form');
        const params = Object.fromEntries(
          Object.entries(body as Record<string, unknown>).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        );
        const settings = (await readPaymentSettings(db, ALIPAY)).value;
        if (!settings.enabled) return fail('Alipay is not enabled');
        let verified: boolean;
        try {
          verified = alipayNotificationVerifies(settings, params);
        } catch {
          return fail('the Alipay public key is not set');
        }
        if (!verified) return fail('the sign does not verify');
        if (params.app_id !== settings.app_id) return fail(`app_id ${String(params.app_id).slice(0, 40)} is not ours`);
        // Verified news of a trade not (yet) paid: acknowledged, nothing credited.
        if (params.trade_status !== 'TRADE_SUCCESS' && params.trade_status !== 'TRADE_FINISHED') {
          request.log.info({ status: params.trade_status }, 'Alipay notification of an unpaid trade');
          return reply.status(200).send('success');
        }
        const amount = yuanToCents(params.total_amount);
        if (amount === null) return fail('total_amount is not an amount');
        if (!params.out_trade_no || !params.trade_no) return fail('out_trade_no or trade_no is missing');
        const settled = await settleRecharge(
          { db, notifier, log: request.log },
          { channel: 'alipay', outTradeNo: params.out_trade_no, amount, providerTxnId: params.trade_no },
        );
        return settled.ok ? reply.status(200).send('success') : reply.status(400).send('fail');
      },
    );
  });
}
