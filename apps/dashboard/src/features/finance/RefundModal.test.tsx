// @vitest-environment jsdom
import type { OrderView } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, inputByLabel, installDomStubs, typeInto, waitFor } from '../../shared/testing/dom.ts';
import { RefundModal } from './RefundModal.tsx';

const ORDER: OrderView = {
  id: 41,
  user_id: 3,
  username: 'alice',
  kind: 'recharge',
  channel: 'wxpay',
  state: 'paid',
  amount: 10_000,
  balance_after: 10_000,
  description: 'online recharge (wxpay)',
  user_package_id: null,
  coupon: null,
  out_trade_no: 'mi0x5k2a3b4c5d6e7f8a9b0c1d2e3f4a',
  provider_txn_id: '4200000041',
  created_at: '2026-11-25T10:00:00.000Z',
  paid_at: '2026-11-25T10:01:00.000Z',
  refund_of: null,
  package_name: null,
};
const PATH = '/v1/orders/41/refunds';

describe('refunding an online recharge', () => {
  let root: Root | undefined;
  beforeEach(() => installDomStubs());
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  /** Each refund POST is recorded and answered by the next of `answers`. */
  const open = (answers: (() => Response)[]) => {
    const posts: Record<string, unknown>[] = [];
    const onClose = vi.fn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url !== PATH || init.method !== 'POST') throw new Error(`unexpected ${init.method} ${url}`);
        posts.push(JSON.parse(String(init.body)) as Record<string, unknown>);
        const answer = answers[posts.length - 1];
        if (!answer) throw new Error('no answer left');
        return answer();
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <RefundModal order={ORDER} onClose={onClose} />
        </QueryClientProvider>
      </AppProviders>,
    );
    return { posts, onClose };
  };
  const refunded = () =>
    new Response(
      JSON.stringify({
        code: 0,
        msg: 'ok',
        data: { ...ORDER, id: 42, kind: 'refund', amount: -3_050, balance_after: 6_950, refund_of: 41 },
      }),
    );
  const confirmText = () => document.querySelector('[data-testid="refund-confirm"]')?.textContent;
  const ask = async (amount: string) => {
    const input = await waitFor(() => inputByLabel(document.body, 'Amount to refund'));
    typeInto(input, amount);
    buttonByText(document.body, 'Refund').click();
  };

  it('refunds after a confirmation naming the amount, the channel and the user', async () => {
    const { posts, onClose } = open([refunded]);
    await ask('30.5');
    expect(await waitFor(confirmText)).toBe(
      'Refund 30.50 to the payer by WeChat Pay, taken from the balance of alice (#3)?',
    );
    expect(posts).toEqual([]);
    buttonByText(document.body, 'Confirm').click();
    await waitFor(() => onClose.mock.calls.length === 1);
    expect(posts).toEqual([{ amount: 3_050, refund_no: expect.stringMatching(/^rf41-[0-9a-f]{16}$/) }]);
    await waitFor(() => document.body.textContent?.includes('Refunded 30.50; the balance is now 69.50'));
  });

  it('shows the server’s refusal in the page’s words and asks again with the same refund number', async () => {
    const msg =
      'amount: the balance (10.00) is less than the refund (30.50); a refund never takes a balance below zero';
    const params = { balance: '10.00', price: '30.50', short: '20.50' };
    const refusal = 'The balance 10.00 does not cover 30.50: 20.50 short';
    const { posts, onClose } = open([
      () => new Response(JSON.stringify({ code: 'balance_insufficient', msg, data: null, params }), { status: 402 }),
      refunded,
    ]);
    await ask('30.50');
    await waitFor(confirmText);
    buttonByText(document.body, 'Confirm').click();
    const error = await waitFor(() => document.querySelector('[data-testid="refund-error"]'));
    expect(error.textContent).toContain(refusal);
    expect(onClose).not.toHaveBeenCalled();
    buttonByText(document.body, 'Refund').click();
    await waitFor(confirmText);
    buttonByText(document.body, 'Confirm').click();
    await waitFor(() => onClose.mock.calls.length === 1);
    expect(posts).toHaveLength(2);
    expect(posts[1]).toEqual(posts[0]);
  });

  it('refuses an amount above the order before asking the server', async () => {
    const { posts } = open([]);
    await ask('100.01');
    await waitFor(() => document.body.textContent?.includes('At most the order’s 100.00'));
    expect(confirmText()).toBeUndefined();
    expect(posts).toEqual([]);
  });
});
