import type { OrderView } from '@rampart/contracts';
import { describe, expect, it } from 'vitest';
import { initialPayment, MAX_POLLS, type PaymentState, paymentReducer, paymentTarget } from './paymentFlow.ts';

const order = (state: string, id = 7): OrderView => ({
  id,
  user_id: 2,
  username: 'alice',
  kind: 'recharge',
  channel: 'wxpay',
  state,
  amount: 1000,
  balance_after: state === 'paid' ? 1000 : null,
  description: 'online recharge (wxpay)',
  user_package_id: null,
  coupon: null,
  out_trade_no: 'abc',
  provider_txn_id: null,
  created_at: '2026-03-01T00:00:00.000Z',
  paid_at: null,
  refund_of: null,
  package_name: null,
});
const qr = { kind: 'qr', codeUrl: 'weixin://wxpay/bizpayurl?pr=x' } as const;

describe('paymentReducer', () => {
  it('goes pending → preordering → showing → paid → done', () => {
    let state: PaymentState = paymentReducer(initialPayment, { type: 'opened', order: order('pending') });
    expect(state.step).toBe('pending');
    state = paymentReducer(state, { type: 'preorder' });
    expect(state.step).toBe('preordering');
    state = paymentReducer(state, { type: 'preordered', target: qr });
    expect(state).toMatchObject({ step: 'showing', target: qr, polls: 0 });
    state = paymentReducer(state, { type: 'checked', order: order('pending') });
    expect(state).toMatchObject({ step: 'showing', polls: 1 });
    state = paymentReducer(state, { type: 'checked', order: order('paid') });
    expect(state).toMatchObject({ step: 'paid', order: { balance_after: 1000 } });
    expect(paymentReducer(state, { type: 'finish' })).toEqual({ step: 'done' });
  });

  it('says payments are not configured, and lets the user try again', () => {
    let state = paymentReducer(initialPayment, { type: 'opened', order: order('pending') });
    state = paymentReducer(paymentReducer(state, { type: 'preorder' }), { type: 'notConfigured' });
    expect(state.step).toBe('unavailable');
    expect(paymentReducer(state, { type: 'preorder' }).step).toBe('preordering');
  });

  it('stops waiting after the last poll, and stops on a closed order', () => {
    const showing: PaymentState = { step: 'showing', order: order('pending'), target: qr, polls: MAX_POLLS - 1 };
    expect(paymentReducer(showing, { type: 'checked', order: order('pending') }).step).toBe('expired');
    expect(paymentReducer({ ...showing, polls: 0 }, { type: 'checked', order: order('closed') }).step).toBe('closed');
  });

  it('ignores events that do not apply, and checks of another order', () => {
    const pending = paymentReducer(initialPayment, { type: 'opened', order: order('pending') });
    expect(paymentReducer(pending, { type: 'checked', order: order('paid') })).toBe(pending);
    expect(paymentReducer(initialPayment, { type: 'preorder' })).toBe(initialPayment);
    const showing: PaymentState = { step: 'showing', order: order('pending'), target: qr, polls: 0 };
    expect(paymentReducer(showing, { type: 'checked', order: order('paid', 8) })).toBe(showing);
  });
});

describe('paymentTarget', () => {
  it('reads WeChat’s code_url, Alipay’s qr_code and Alipay’s pay_url', () => {
    expect(paymentTarget('wxpay', { code_url: 'weixin://x' })).toEqual({ kind: 'qr', codeUrl: 'weixin://x' });
    expect(paymentTarget('alipay', { qr_code: 'https://qr.alipay.com/x' })).toEqual({
      kind: 'qr',
      codeUrl: 'https://qr.alipay.com/x',
    });
    expect(paymentTarget('alipay', { pay_url: 'https://pay.example/x' })).toEqual({
      kind: 'link',
      payUrl: 'https://pay.example/x',
    });
    expect(paymentTarget('wxpay', { pay_url: 'https://pay.example/x' })).toBeNull();
    expect(paymentTarget('alipay', null)).toBeNull();
  });
});
