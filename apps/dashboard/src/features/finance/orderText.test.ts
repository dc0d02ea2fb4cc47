import type { OrderView } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { FINANCE_LOCALES } from './locales/bundle.ts';
import { orderDescription } from './orderText.ts';

const zh = createI18n(COMMON_LOCALES, 'zh-CN', [FINANCE_LOCALES]).t;
const en = createI18n(COMMON_LOCALES, 'en-US', [FINANCE_LOCALES]).t;

const order = (
  kind: string,
  channel: string,
  description: string,
  refundOf: number | null = null,
  packageName: string | null = null,
): Pick<OrderView, 'kind' | 'channel' | 'description' | 'refund_of' | 'package_name'> => ({
  kind,
  channel,
  description,
  refund_of: refundOf,
  package_name: packageName,
});

describe('orderDescription', () => {
  it('words an online recharge from its channel', () => {
    expect(orderDescription(zh, order('recharge', 'wxpay', 'online recharge (wxpay)'))).toBe('在线充值（微信支付）');
    expect(orderDescription(en, order('recharge', 'alipay', 'online recharge (alipay)'))).toBe(
      'Online recharge by Alipay',
    );
  });

  it('words purchases, renewals and upgrades with the package and the figures', () => {
    expect(orderDescription(zh, order('purchase', 'balance', 'Starter: 3 month(s)'))).toBe('购买 Starter：3 个月');
    expect(orderDescription(zh, order('purchase', 'balance', 'Pro: plus: 1 year(s)'))).toBe('购买 Pro: plus：1 年');
    expect(orderDescription(en, order('purchase', 'balance', 'Starter: 1 month(s)'))).toBe(
      'Bought Starter for 1 month',
    );
    expect(orderDescription(zh, order('renewal', 'balance', 'Shop: 2 quarter(s) more'))).toBe('续费 Shop：2 个季度');
    expect(orderDescription(zh, order('renewal', 'balance', 'Shop: renewed automatically'))).toBe('Shop 自动续费');
    expect(orderDescription(zh, order('upgrade', 'balance', 'Shop: 2 x More sites for 30 day(s)'))).toBe(
      'Shop：2 个More sites，30 天',
    );
    expect(orderDescription(en, order('upgrade', 'balance', "Shop: 1 upgrade(s) carried to the package's end"))).toBe(
      'Shop: 1 upgrade pack carried to the package’s end',
    );
  });

  it('words refunds and administrator credits, keeping what the administrator typed', () => {
    expect(orderDescription(zh, order('refund', 'wxpay', 'refund of order 12: 重复付款', 12))).toBe(
      '订单 12 的退款：重复付款',
    );
    expect(orderDescription(zh, order('refund', 'alipay', 'refund of order 12', 12))).toBe('订单 12 的退款');
    expect(orderDescription(zh, order('recharge', 'admin', 'by admin'))).toBe('由 admin 调整');
    expect(orderDescription(zh, order('adjustment', 'admin', '补偿停机'))).toBe('补偿停机');
  });

  it('names the package from the row when the description has another shape', () => {
    expect(orderDescription(zh, order('purchase', 'balance', 'legacy import', null, 'Shop'))).toBe('购买 Shop');
    expect(orderDescription(en, order('upgrade', 'balance', 'legacy import', null, 'Shop'))).toBe(
      'Upgrade packs for Shop',
    );
  });

  it('shows a description of an unknown shape as it is', () => {
    expect(orderDescription(zh, order('purchase', 'balance', 'legacy import'))).toBe('legacy import');
  });
});
