import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/i18n.ts';
import { COMMON_LOCALES } from '../i18n/locales/bundle.ts';
import { ApiError, type ErrorParams } from './apiError.ts';
import { errorPopupText, errorText } from './errorText.ts';

const zh = createI18n(COMMON_LOCALES, 'zh-CN');
const en = createI18n(COMMON_LOCALES, 'en-US');

const failure = (code: string, msg: string, status: number, params?: ErrorParams) =>
  new ApiError(code, msg, status, '/v1/user-packages', params);

const short = failure('balance_insufficient', 'the balance (0.00) does not cover 1290.00; recharge 1290.00 more', 402, {
  balance: '0.00',
  price: '1290.00',
  short: '1290.00',
});

describe('errorText', () => {
  it('words a refusal in Chinese on a zh-CN page, with the figures in the page format', () => {
    expect(errorText(short, zh)).toBe('余额不足：当前余额 0.00，需支付 1,290.00，还差 1,290.00');
  });

  it('translates the API words in params and never shows the English rule on a zh-CN page', () => {
    const full = failure('limit_reached', 'user_package_id: package Basic allows 1 sites; 1 are used', 403, {
      limit: 'sites',
      allowed: 1,
      used: 1,
      package: 'Basic',
    });
    expect(errorText(full, zh)).toBe('套餐“Basic”的网站数上限为 1，已使用 1');
    const invalid = failure('invalid_param', 'coupon: must be 4 to 32 letters', 400, {
      field: 'coupon',
      rule: 'must be 4 to 32 letters',
    });
    expect(errorText(invalid, zh)).toBe('参数 coupon 的值无效');
    const channel = failure('channel_unavailable', 'wxpay is not configured', 409, { channel: 'wxpay' });
    expect(errorText(channel, zh)).toBe('系统未配置微信支付');
  });

  it('falls back to the text without figures when the params are missing or unknown', () => {
    expect(errorText(failure('balance_insufficient', 'the balance does not cover it', 402), zh)).toBe(
      '余额不足，无法支付',
    );
    const odd = failure('limit_reached', 'x', 403, { limit: 'galaxies', allowed: 1, used: 1, package: 'P' });
    expect(errorText(odd, zh)).toBe('已达到套餐的上限');
  });

  it('shows the server English only on an en-US page and only for a code it has no text for', () => {
    const unknown = failure('quota_melted', 'the quota melted', 409);
    expect(errorText(unknown, en)).toBe('the quota melted');
    expect(errorText(unknown, zh)).toBe('请求失败');
    expect(errorText(failure('bad_credentials', 'bad account or password', 400), en)).toBe('Wrong account or password');
    expect(errorText(short, en)).toBe('The balance 0.00 does not cover 1,290.00: 1,290.00 short');
  });

  it('words a failure at the payment provider for the customer, in both languages', () => {
    const refused = failure('conflict', 'WeChat Pay: the API refused: PARAM_ERROR: notify_url', 409, {
      provider: 'wxpay',
    });
    expect(errorText(refused, zh)).toBe('微信支付暂时无法完成支付，请稍后再试，或联系服务商');
    expect(errorText(refused, en)).toBe(
      'WeChat Pay could not take the payment; try again later, or contact the operator',
    );
  });

  it('keeps the server’s detail on an en-US page for a code worded only in general', () => {
    const used = failure('conflict', 'match 3 is used by rule group Bots; change it first', 409);
    expect(errorText(used, en)).toBe('match 3 is used by rule group Bots; change it first');
    expect(errorText(used, zh)).toBe('与现有数据冲突');
    const invalid = failure('invalid_param', 'body/webhook_url: must be an https:// URL', 400);
    expect(errorText(invalid, en)).toBe('body/webhook_url: must be an https:// URL');
    expect(errorText(invalid, zh)).toBe('参数值无效');
  });

  it('gives an unknown code of a known status that status text on a zh-CN page', () => {
    expect(errorText(failure('gone_fishing', 'gone fishing', 403), zh)).toBe('拒绝访问');
    expect(errorText(failure('gone_fishing', '', 409), en)).toBe('request failed');
  });

  it('words the client-made failures: statuses, timeouts, network', () => {
    expect(errorText(new ApiError('404', 'x', 404, '/v1/nowhere'), zh)).toBe('请求地址出错：/v1/nowhere');
    expect(errorText(new ApiError('network', 'x', 0, '/v1/a'), en)).toBe('network error');
  });

  it('keeps the popup format of spec §8: text - code', () => {
    expect(errorPopupText(failure('channel_unavailable', 'alipay off', 409, { channel: 'alipay' }), zh)).toBe(
      '系统未配置支付宝 - channel_unavailable',
    );
  });
});
