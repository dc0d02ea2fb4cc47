import {
  AlipayPreorder,
  AlipaySettings,
  Envelope,
  IdParams,
  OrderRefundBody,
  OrderView,
  PaymentChannels,
  PERMISSIONS,
  PreorderBody,
  WxpayPlatformCertList,
  WxpayPreorder,
  WxpaySettings,
} from '@rampart/contracts';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { TSchema } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy, scopeOf } from '../../plugins/route-policy.ts';
import { readOrder } from '../billing/orders.repository.ts';
import { alipayPrecreate } from './alipay.ts';
import {
  ALIPAY,
  channelUnavailable,
  maskPaymentSecrets,
  type PaymentProvider,
  readPaymentSettings,
  readyChannels,
  resetPaymentSettings,
  WXPAY,
  writePaymentSettings,
} from './payment-settings.ts';
import { refundOrder } from './refunds.service.ts';
import { wxpayNativePreorder } from './wxpay.ts';
import {
  downloadBeforeSaving,
  refreshWxpayCertificates,
  usesPlatformCerts,
  WxpayCertificateError,
  wxpayCertificateViews,
  wxpayVerifier,
} from './wxpay-certs.ts';

const tags = ['payments'];

const SETTINGS: { provider: PaymentProvider<object>; schema: TSchema; description: string }[] = [
  {
    provider: WXPAY as PaymentProvider<object>,
    schema: WxpaySettings,
    description:
      'WeChat Pay API v3 (Native): merchant id, app id, merchant certificate serial and private key, API v3 key, platform certificate or public key, notify base URL; secrets are never answered once saved',
  },
  {
    provider: ALIPAY as PaymentProvider<object>,
    schema: AlipaySettings,
    description:
      'Alipay (precreate, RSA2): app id, application private key, Alipay public key, gateway URL, notify base URL; the private key is never answered once saved',
  },
];

/** The caller's own pending recharge order on `channel` (never another user's), or a refusal naming order_id. */
async function payableOrder(db: Kysely<Database>, request: FastifyRequest, orderId: number, channel: string) {
  const { userId } = scopeOf(request);
  const order = await db
    .selectFrom('orders')
    .select(['id', 'kind', 'channel', 'state', 'amount', 'out_trade_no'])
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!order) throw new AppError('not_found', `order_id: order ${orderId} does not exist`);
  if (order.kind !== 'recharge' || order.channel !== channel)
    throw new AppError('invalid_param', `order_id: order ${orderId} is not a ${channel} recharge`);
  if (order.state !== 'pending')
    throw new AppError('conflict', `order_id: order ${orderId} is ${order.state}, not pending`);
  return { ...order, amount: Number(order.amount), description: `Rampart recharge ${order.out_trade_no}` };
}

/**
 * Payment settings (admin:sys, as Config entries `global-0-payment-{wxpay,alipay}`) and the
 * pre-orders that turn a customer's pending recharge order into a QR code to scan.
 */
export async function paymentRoutes(app: App, { db }: AppContext) {
  const sysAdmin = { policy: policy.admin(PERMISSIONS.adminSys) };
  for (const { provider, schema, description } of SETTINGS) {
    const path = `/v1/configs/global-0-payment-${provider.name}`;
    const shown = async () => ok(maskPaymentSecrets(provider, (await readPaymentSettings(db, provider)).value));
    const routeSchema = { tags, description, response: { 200: Envelope(schema) } };
    app.get(path, { config: sysAdmin, schema: routeSchema }, shown);
    app.put(
      path,
      {
        config: sysAdmin,
        schema: { ...routeSchema, body: schema },
      },
      async (request) => {
        const prepare =
          provider.name === 'wxpay' ? (value: object) => downloadBeforeSaving(db, value as WxpaySettings) : undefined;
        await writePaymentSettings(db, provider, request.body as object, prepare);
        return shown();
      },
    );
    app.delete(path, { config: sysAdmin, schema: routeSchema }, async () => {
      await resetPaymentSettings(db, provider);
      return shown();
    });
  }

  const certsPath = '/v1/configs/global-0-payment-wxpay/certificates';
  const certificates = async () => {
    const { value } = await readPaymentSettings(db, WXPAY);
    const list = await wxpayCertificateViews(db, value);
    return ok({ list, total: list.length });
  };
  const certsSchema = { tags, response: { 200: Envelope(WxpayPlatformCertList) } };
  app.get(
    certsPath,
    {
      config: sysAdmin,
      schema: {
        ...certsSchema,
        description:
          'The WeChat Pay platform certificates notifications are verified with: serial and validity of those downloaded from GET /v3/certificates (refreshed every 12 hours by the wxpay-certificates task) and of the one given in the settings',
      },
    },
    certificates,
  );
  app.post(
    `${certsPath}/refresh`,
    {
      config: sysAdmin,
      schema: {
        ...certsSchema,
        description:
          'Downloads the WeChat Pay platform certificates now (GET /v3/certificates) and answers the list; refused while WeChat Pay is off or verifies with the platform public key',
      },
    },
    async () => {
      const { value } = await readPaymentSettings(db, WXPAY);
      if (!value.enabled) throw new AppError('conflict', 'WeChat Pay is not enabled');
      if (!usesPlatformCerts(value))
        throw new AppError(
          'conflict',
          'WeChat Pay verifies with the platform public key: there are no certificates to download',
        );
      try {
        await refreshWxpayCertificates(db, value);
      } catch (error) {
        if (error instanceof WxpayCertificateError) throw new AppError('conflict', error.message);
        throw error;
      }
      return certificates();
    },
  );

  app.get(
    '/v1/payment-channels',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        description:
          'The online recharge channels that are enabled and fully set up (wxpay, alipay): offer only these; POST /v1/orders refuses any other with channel_unavailable.',
        response: { 200: Envelope(PaymentChannels) },
      },
    },
    async () => ok({ list: await readyChannels(db) }),
  );

  app.post(
    '/v1/wxpay/preorder',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        description:
          'A WeChat Pay Native pre-order for the caller’s pending wxpay recharge order: the code_url to scan.',
        body: PreorderBody,
        response: { 200: Envelope(WxpayPreorder) },
      },
    },
    async (request) => {
      const order = await payableOrder(db, request, request.body.order_id, 'wxpay');
      const { value: settings } = await readPaymentSettings(db, WXPAY);
      if (!settings.enabled) throw channelUnavailable('wxpay');
      const codeUrl = await wxpayNativePreorder(settings, wxpayVerifier(db, settings, request.log), order);
      return ok({ code_url: codeUrl, out_trade_no: order.out_trade_no, amount: order.amount });
    },
  );

  app.post(
    '/v1/alipay/preorder',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        description: 'An Alipay precreate for the caller’s pending alipay recharge order: the qr_code to scan.',
        body: PreorderBody,
        response: { 200: Envelope(AlipayPreorder) },
      },
    },
    async (request) => {
      const order = await payableOrder(db, request, request.body.order_id, 'alipay');
      const { value: settings } = await readPaymentSettings(db, ALIPAY);
      if (!settings.enabled) throw channelUnavailable('alipay');
      const qrCode = await alipayPrecreate(settings, order);
      return ok({ qr_code: qrCode, out_trade_no: order.out_trade_no, amount: order.amount });
    },
  );

  app.post(
    '/v1/orders/:id/refunds',
    {
      config: { policy: policy.admin(PERMISSIONS.adminFinance) },
      schema: {
        tags,
        description:
          'Admin (admin:finance): refunds part or all of a paid online recharge through its provider (WeChat Pay refund, Alipay alipay.trade.refund), taken from the balance in the same step: never below zero, never more than the order less its refunds. Answers the refund order (kind refund, negative amount). The same refund_no refunds once: a repeated call answers the refund made. A provider refusal changes nothing and is reported with its code and message.',
        params: IdParams,
        body: OrderRefundBody,
        response: { 200: Envelope(OrderView) },
      },
    },
    async (request) => {
      const refundId = await refundOrder(db, request.params.id, request.body);
      return ok(await readOrder(db, scopeOf(request), refundId));
    },
  );
}
