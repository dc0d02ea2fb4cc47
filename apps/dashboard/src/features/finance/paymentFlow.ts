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

/** The pay-with of a pre-order answer: WeChat's `code_url` or Alipay's `pay_url`; null when neither is there. */
export const paymentTarget = (channel: string, answer: unknown): PaymentTarget | null => {
  if (typeof answer !== 'object' || answer === null) return null;
  const fields = answer as { code_url?: unknown; pay_url?: unknown };
  if (channel === 'wxpay' && typeof fields.code_url === 'string' && fields.code_url)
    return { kind: 'qr', codeUrl: fields.code_url };
  if (channel === 'alipay' && typeof fields.pay_url === 'string' && fields.pay_url)
    return { kind: 'link', payUrl: fields.pay_url };
  return null;
};
