// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createQueryClient } from '../../app/queryClient.ts';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { CertificationReview } from './CertificationReview.tsx';

const REQUEST = {
  id: 7,
  user_id: 3,
  account: 'alice',
  type: 'personal',
  name: 'Zhang San',
  id_number: '11010519491231002X',
  state: 'pending',
  reason: '',
  created_at: '2026-11-25T08:00:00.000Z',
  reviewed_at: null,
  reviewer_id: null,
};
const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));

/** The component alone, with the server's answers scripted: every call is recorded. */
async function renderReview(userId?: number) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const key = `${init.method} ${url}`;
      calls.push({ key, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (init.method === 'PUT') return ok({ ...REQUEST, state: 'approved' });
      return ok({ list: [REQUEST], total: 1 });
    }),
  );
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  root.render(
    <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
      <QueryClientProvider client={createQueryClient()}>
        <CertificationReview {...(userId !== undefined && { userId })} />
      </QueryClientProvider>
    </AppProviders>,
  );
  await waitFor(() => container.textContent?.includes('Zhang San'));
  return { container, root, calls };
}

/** The table measures itself; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('certification review', () => {
  let root: Root | undefined;
  beforeEach(() => {
    installDomStubs();
    vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? StillObserver);
  });
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  it('lists pending requests in full and approves one after confirmation', async () => {
    const page = await renderReview();
    root = page.root;
    expect(page.calls[0]?.key).toMatch(/^GET \/v1\/user\/certify\?.*state=pending/);
    expect(page.container.textContent).toContain('11010519491231002X');
    buttonByText(page.container, 'Approve').click();
    const confirm = await waitFor(() =>
      [...document.querySelectorAll<HTMLButtonElement>('.ant-popover button')].find(
        (button) => button.textContent?.trim() === 'Approve',
      ),
    );
    confirm.click();
    await waitFor(() => page.calls.some((call) => call.key === 'PUT /v1/user/certify/7'));
    expect(page.calls.find((call) => call.key === 'PUT /v1/user/certify/7')?.body).toEqual({ state: 'approved' });
  });

  it('rejects only with a reason, and reads one user when given a user id', async () => {
    const page = await renderReview(3);
    root = page.root;
    expect(page.calls[0]?.key).toMatch(/user_id=3/);
    expect(page.calls[0]?.key).not.toMatch(/state=/);
    buttonByText(page.container, 'Reject').click();
    const dialog = await waitFor(() => document.querySelector<HTMLElement>('.ant-modal'));
    buttonByText(dialog, 'Reject').click();
    await waitFor(() => dialog.textContent?.includes('Please say why'));
    expect(page.calls.some((call) => call.key.startsWith('PUT'))).toBe(false);
    const reason = dialog.querySelector('textarea');
    if (!reason) throw new Error('no reason field');
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(reason, 'Blurred photo');
    reason.dispatchEvent(new Event('input', { bubbles: true }));
    buttonByText(dialog, 'Reject').click();
    await waitFor(() => page.calls.some((call) => call.key === 'PUT /v1/user/certify/7'));
    expect(page.calls.find((call) => call.key === 'PUT /v1/user/certify/7')?.body).toEqual({
      state: 'rejected',
      reason: 'Blurred photo',
    });
  });
});
