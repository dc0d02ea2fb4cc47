// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createQueryClient } from '../../app/queryClient.ts';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, typeInto, waitFor } from '../../shared/testing/dom.ts';
import { Component as SubscribePage } from './SubscribePage.tsx';

const entry = (type: string, email = false) => ({ type, in_app: true, email, sms: false, webhook: false });
const SUBSCRIPTION = {
  types: [entry('system'), entry('security', true)],
  webhook_url: '',
  has_secret: false,
};
const ok = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));

class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('subscription page', () => {
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

  it('sends the whole matrix with the toggled channel and the trimmed webhook URL', async () => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        if (init.method === 'PUT') {
          puts.push(JSON.parse(String(init.body)));
          return ok({ ...SUBSCRIPTION, types: [entry('system', true), entry('security', true)] });
        }
        return ok(SUBSCRIPTION);
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={createQueryClient()}>
          <SubscribePage />
        </QueryClientProvider>
      </AppProviders>,
    );
    const systemEmail = await waitFor(() =>
      container.querySelector<HTMLInputElement>('input[aria-label="System · Email"]'),
    );
    expect(systemEmail.checked).toBe(false);
    systemEmail.click();
    typeInto(
      await waitFor(() => container.querySelector<HTMLInputElement>('#webhook-url')),
      '  https://hooks.example.com/r  ',
    );
    buttonByText(container, 'Save').click();
    await waitFor(() => puts.length === 1 || undefined);
    expect(puts[0]).toEqual({
      types: [entry('system', true), entry('security', true)],
      webhook_url: 'https://hooks.example.com/r',
    });
  });
});
