import { describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import { purchaseText, unattachedText } from './purchaseResult.ts';

const zh = createI18n(COMMON_LOCALES, 'zh-CN', [USER_PACKAGES_LOCALES]).t;
const en = createI18n(COMMON_LOCALES, 'en-US', [USER_PACKAGES_LOCALES]).t;

describe('purchaseText', () => {
  it('says what the package took on and names what did not fit', () => {
    const answer = {
      id: 7,
      attached: { sites: 2, streams: 1 },
      not_attached: { sites: ['c.example', 'd.example'], streams: [] },
    };
    expect(purchaseText(en, answer)).toBe(
      'Paid from your balance. Counted against this package: 2 sites, 1 stream. Did not fit in it, still without a package: sites c.example, d.example.',
    );
    expect(purchaseText(zh, answer)).toBe(
      '已从余额支付。已计入此套餐：网站 2 个、转发 1 个。超出套餐上限，仍未计入套餐：网站 c.example、d.example。',
    );
  });

  it('is the plain paid message when nothing was attached or the server did not say', () => {
    expect(purchaseText(en, { id: 7 })).toBe('Paid from your balance.');
    expect(purchaseText(zh, undefined)).toBe('已从余额支付。');
    const nothing = { attached: { sites: 0, streams: 0 }, not_attached: { sites: [], streams: [] } };
    expect(purchaseText(en, nothing)).toBe('Paid from your balance.');
  });
});

describe('unattachedText', () => {
  it('warns only a customer without an active package who has sites or streams', () => {
    expect(unattachedText(zh, { active: 0, unattached: { sites: 3, streams: 0 } })).toBe(
      '您有未计入套餐的网站或转发（网站 3 个），现在购买的套餐将把它们计入其上限。',
    );
    expect(unattachedText(en, { active: 1, unattached: { sites: 3, streams: 1 } })).toBeUndefined();
    expect(unattachedText(en, { active: 0, unattached: { sites: 0, streams: 0 } })).toBeUndefined();
    expect(unattachedText(en, undefined)).toBeUndefined();
  });
});
