// @vitest-environment jsdom
import { DEFAULT_EDGE_ENFORCEMENT } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { EDGE_CONFIG_KEYS } from './api.ts';
import { EnforcementCard } from './EnforcementCard.tsx';

describe('inactive packages card', () => {
  let root: Root | undefined;
  beforeEach(() => installDomStubs());
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const open = (language: 'en-US' | 'zh-CN') => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (!url.endsWith(`/v1/configs/${EDGE_CONFIG_KEYS.enforcement}`)) throw new Error(`unexpected ${url}`);
        const value = init.method === 'PUT' ? JSON.parse(String(init.body)) : DEFAULT_EDGE_ENFORCEMENT;
        if (init.method === 'PUT') puts.push(value);
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: value }));
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, language)} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <EnforcementCard />
        </QueryClientProvider>
      </AppProviders>,
    );
    return { container, puts };
  };

  it('shows the stored policy and saves the throttle with its rate', async () => {
    const { container, puts } = open('en-US');
    const throttle = await waitFor(() =>
      [...container.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find(
        (input) => input.value === 'throttle',
      ),
    );
    expect(container.textContent).toContain('Inactive packages');
    expect(container.querySelector<HTMLInputElement>('input[value="suspend"]')?.checked).toBe(true);
    throttle.click();
    buttonByText(container, 'Save').click();
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ policy: 'throttle', throttle_kbps: DEFAULT_EDGE_ENFORCEMENT.throttle_kbps });
  });

  it('speaks Chinese in zh-CN', async () => {
    const { container } = open('zh-CN');
    await waitFor(() => container.textContent?.includes('限速速率'));
    expect(container.textContent).toContain('失效套餐');
  });
});
