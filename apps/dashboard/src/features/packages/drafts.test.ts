import type { CouponView, PackageView } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import {
  couponBody,
  couponDraftOf,
  couponValue,
  isoOf,
  keptRule,
  localInput,
  packageBody,
  packageDraftOf,
  packUpBody,
  packUpDraftOf,
  sitesExceedDomains,
  withoutCoercedNulls,
} from './drafts.ts';

const PACKAGE: PackageView = {
  id: 3,
  name: 'Pro',
  group_id: 2,
  group_name: 'Web',
  line_group_id: null,
  description: 'For shops',
  price_month: 1990,
  price_quarter: null,
  price_year: 19900,
  traffic_gb: 0,
  bandwidth_mbps: 100,
  max_sites: 5,
  max_domains: 50,
  max_streams: 2,
  max_ports: 4,
  billing: 'traffic',
  https: true,
  waf: true,
  hotlink: false,
  url_auth: true,
  error_pages: true,
  redirects: true,
  health_check: true,
  geo: true,
  cc_rule_group_ids: [7],
  custom_cname: false,
  sort: 1,
  on_sale: true,
  stock: null,
  sold: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};

describe('the package form', () => {
  it('shows prices as money and sends them back as the same cents, a term without price as null', () => {
    const draft = packageDraftOf(PACKAGE);
    expect(draft).toMatchObject({ price_month: '19.90', price_quarter: '', price_year: '199.00', line_group_id: 0 });
    const body = packageBody(draft);
    expect(body).toMatchObject({
      price_month: 1990,
      price_quarter: null,
      price_year: 19900,
      group_id: 2,
      line_group_id: null,
      cc_rule_group_ids: [7],
      stock: null,
    });
  });

  it('sends typed prices as cents, "none" selects as null, and trims the name', () => {
    const body = packageBody({
      ...packageDraftOf(null),
      name: '  Basic ',
      price_month: '9.9',
      price_year: '99',
      stock: 10,
    });
    expect(body).toMatchObject({
      name: 'Basic',
      group_id: null,
      price_month: 990,
      price_quarter: null,
      price_year: 9900,
      stock: 10,
      on_sale: false,
    });
  });

  it('starts a new package off sale, and keeps an existing one as it is', () => {
    expect(packageDraftOf(null).on_sale).toBe(false);
    expect(packageDraftOf(PACKAGE).on_sale).toBe(true);
  });

  it('warns when more sites are allowed than domains', () => {
    expect(sitesExceedDomains({ max_sites: 20, max_domains: 10 })).toBe(true);
    expect(sitesExceedDomains({ max_sites: 10, max_domains: 10 })).toBe(false);
    expect(sitesExceedDomains({ max_sites: 1, max_domains: 0 })).toBe(true);
    expect(sitesExceedDomains({ max_sites: null, max_domains: null })).toBe(false);
  });
});

describe('the upgrade pack form', () => {
  it('sends its monthly price as cents and an empty package list for every package', () => {
    const body = packUpBody({ ...packUpDraftOf(null), name: 'More traffic', amount: 100, price_month: '5.50' });
    expect(body).toEqual({
      name: 'More traffic',
      kind: 'traffic_gb',
      amount: 100,
      price_month: 550,
      package_ids: [],
      on_sale: true,
      sort: 0,
    });
  });
});

describe('the coupon form', () => {
  it('reads the value as cents off for an amount coupon and as a whole percent for a percent one', () => {
    expect(couponValue('amount', '10.5')).toBe(1050);
    expect(couponValue('amount', '0')).toBeUndefined();
    expect(couponValue('amount', '1.234')).toBeUndefined();
    expect(couponValue('percent', '15')).toBe(15);
    expect(couponValue('percent', '100')).toBe(100);
    for (const text of ['0', '101', '12.5', 'x']) expect(couponValue('percent', text)).toBeUndefined();
  });

  it('upper-cases the code, sends money as cents and empty times as null', () => {
    const body = couponBody({
      ...couponDraftOf(null),
      code: ' spring-26 ',
      value: '20',
      min_spend: '100.00',
      package_ids: [3],
    });
    expect(body).toEqual({
      code: 'SPRING-26',
      kind: 'amount',
      value: 2000,
      min_spend: 10000,
      package_ids: [3],
      starts_at: null,
      ends_at: null,
      uses_per_user: 1,
      uses_total: 100,
      enabled: true,
    });
  });

  it('shows a stored coupon as the form holds it and saves it unchanged', () => {
    const coupon: CouponView = {
      id: 1,
      code: 'TENOFF',
      kind: 'percent',
      value: 10,
      min_spend: 500,
      package_ids: [],
      starts_at: '2026-03-01T08:00:00.000Z',
      ends_at: null,
      uses_per_user: 2,
      uses_total: 50,
      used: 3,
      enabled: false,
      created_at: '2026-01-01T00:00:00.000Z',
    };
    const draft = couponDraftOf(coupon);
    expect(draft).toMatchObject({ value: '10', min_spend: '5.00', ends_at: '' });
    expect(couponBody(draft)).toMatchObject({
      code: 'TENOFF',
      kind: 'percent',
      value: 10,
      min_spend: 500,
      starts_at: '2026-03-01T08:00:00.000Z',
      ends_at: null,
      uses_per_user: 2,
      uses_total: 50,
      enabled: false,
    });
  });

  it('turns datetime-local text into ISO times and back', () => {
    expect(isoOf('')).toBeNull();
    expect(isoOf('not a time')).toBeNull();
    expect(localInput(isoOf('2026-05-04T03:02'))).toBe('2026-05-04T03:02');
    expect(localInput(null)).toBe('');
  });
});

describe('bodies sent to the master', () => {
  it('leave out a null price, stock or time (the master would read it as 0 or refuse it) and keep other nulls', () => {
    expect(
      withoutCoercedNulls({
        price_month: 100,
        price_quarter: null,
        stock: null,
        group_id: null,
        starts_at: null,
        ends_at: '2026-01-01T00:00:00.000Z',
      }),
    ).toEqual({ price_month: 100, group_id: null, ends_at: '2026-01-01T00:00:00.000Z' });
  });

  it('refuse to empty a field set before, and let an unset one stay empty', async () => {
    await expect(keptRule(true, 'kept').validator(null, '')).rejects.toThrow('kept');
    await expect(keptRule(true, 'kept').validator(null, null)).rejects.toThrow('kept');
    await expect(keptRule(true, 'kept').validator(null, '1.00')).resolves.toBeUndefined();
    await expect(keptRule(false, 'kept').validator(null, '')).resolves.toBeUndefined();
  });
});
