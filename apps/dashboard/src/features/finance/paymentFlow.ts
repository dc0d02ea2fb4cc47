import type { OrderView } from '@rampart/contracts';

/** How long the page waits for a shown QR code to be paid, checking the order every POLL_MS. */
export const POLL_MS = 3000;
export const MAX_POLLS = 200;

/** What the provider's pre-order gives to pay with: a QR code's content (WeChat) or a page to open (Alipay). */
export type PaymentTarget = { kind: 'qr'; codeUrl: string } | { kind: 'link'; payUrl: string };

/**
 * An online recharge from its opening to the money arriving:
 * pending (order opened) → preordering → showing (QR code or link) → paid → done,
 * with `unavailable` when payments are not configured, `expired` when the wait ran out, and
 * `closed` when the order was closed meanwhile.
 */
export type PaymentState =
  | { step: 'idle' }
  | { step: 'pending'; order: OrderView }
  | { step: 'preordering'; order: OrderView }
  | { step: 'unavailable'; order: OrderView }
  | { step: 'failed'; order: OrderView; reason: string }
  | { step: 'showing'; order: OrderView; target: PaymentTarget; polls: number }
  | { step: 'expired'; order: OrderView }
  | { step: 'paid'; order: OrderView }
  | { step: 'closed'; order: OrderView }
  | { step: 'done' };

export type PaymentEvent =
  | { type: 'opened'; order: OrderView }
  | { type: 'preorder' }
  | { type: 'preordered'; target: PaymentTarget }
  | { type: 'notConfigured' }
  | { type: 'preorderFailed'; reason: string }
  | { type: 'checked'; order: OrderView }
  | { type: 'finish' }
  | { type: 'reset' };

export const initialPayment: PaymentState = { step: 'idle' };

/** The next state; an event that does not apply to the current step leaves it as it is. */
export const paymentReducer = (state: PaymentState, event: PaymentEvent): PaymentState => {
  if (event.type === 'reset') return initialPayment;
  if (event.type === 'opened') return { step: 'pending', order: event.order };
  switch (state.step) {
    case 'pending':
    case 'unavailable':
    case 'failed':
    case 'expired':
      return event.type === 'preorder' ? { step: 'preordering', order: state.order } : state;
    case 'preordering':
      if (event.type === 'preordered') return { step: 'showing', order: state.order, target: event.target, polls: 0 };
      if (event.type === 'notConfigured') return { step: 'unavailable', order: state.order };
      if (event.type === 'preorderFailed') return { step: 'failed', order: state.order, reason: event.reason };
      return state;
    case 'showing': {
      if (event.type !== 'checked' || event.order.id !== state.order.id) return state;
      if (event.order.state === 'paid') return { step: 'paid', order: event.order };
      if (event.order.state === 'closed') return { step: 'closed', order: event.order };
      const polls = state.polls + 1;
      return polls >= MAX_POLLS ? { step: 'expired', order: event.order } : { ...state, order: event.order, polls };
    }
    case 'paid':
      return event.type === 'finish' ? { step: 'done' } : state;
    default:
      return state;
  }
};

/**
 * The pay-with of a pre-order answer: WeChat's `code_url` or Alipay's `qr_code` as a QR code, or
 * Alipay's `pay_url` (a page payment) as a link; null when none is there.
 */
export const paymentTarget = (channel: string, answer: unknown): PaymentTarget | null => {
  if (typeof answer !== 'object' || answer === null) return null;
  const text = (key: string) => {
    const value = (answer as Record<string, unknown>)[key];
    return typeof value === 'string' && value ? value : undefined;
  };
  const code = channel === 'wxpay' ? text('code_url') : channel === 'alipay' ? text('qr_code') : undefined;
  if (code) return { kind: 'qr', codeUrl: code };
  const payUrl = channel === 'alipay' ? text('pay_url') : undefined;
  return payUrl ? { kind: 'link', payUrl } : null;
};
