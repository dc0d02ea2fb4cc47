// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders.tsx';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { buttonByText, installDomStubs, waitFor } from '../../../shared/testing/dom.ts';
import { WAF_DEFAULTS_PATH } from '../api.ts';
import { PROTECTION_LOCALES } from '../locales/bundle.ts';
import { WafDefaultsCard } from './WafDefaultsCard.tsx';

/** The selects measure themselves; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const Card = () => {
  useLocales(PROTECTION_LOCALES);
  return <WafDefaultsCard />;
};

describe('WAF defaults: static files', () => {
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

  const open = (language: 'en-US' | 'zh-CN', stored: object) => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (!url.endsWith(WAF_DEFAULTS_PATH)) throw new Error(`unexpected ${url}`);
        if (init.method === 'PUT') puts.push(JSON.parse(String(init.body)));
        const data = init.method === 'PUT' ? JSON.parse(String(init.body)) : stored;
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, language)} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <Card />
        </QueryClientProvider>
      </AppProviders>,
    );
    return { container, puts };
  };

  const tags = (container: HTMLElement) =>
    [...container.querySelectorAll('.ant-select-selection-item')].map((tag) => tag.getAttribute('title'));

  it('shows the switch off and the default extensions, and saves the switch alone when turned on', async () => {
    const { container, puts } = open('en-US', { mode: 'block', paranoia: 1, exclusions: [] });
    const toggle = await waitFor(() =>
      container.querySelector<HTMLButtonElement>('button[role="switch"][aria-label="Inspect static files"]'),
    );
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(container.textContent).toContain('/index.php/x.png');
    expect(container.textContent).toContain('Static file extensions');
    expect(tags(container)).toEqual(expect.arrayContaining(['png', 'css', 'js', 'woff2', 'pdf']));
    toggle.click();
    await waitFor(() => toggle.getAttribute('aria-checked') === 'true');
    buttonByText(container, 'Save').click();
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ mode: 'block', paranoia: 1, exclusions: [], inspect_static: true });
  });

  it('reads a list of the admin’s own, in Chinese', async () => {
    const { container } = open('zh-CN', {
      mode: 'detect',
      paranoia: 2,
      exclusions: [],
      inspect_static: true,
      static_exts: ['png', 'txt'],
    });
    const toggle = await waitFor(() =>
      container.querySelector<HTMLButtonElement>('button[role="switch"][aria-label="检查静态文件"]'),
    );
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(container.textContent).toContain('静态文件扩展名');
    await waitFor(() => tags(container).length === 2);
    expect(tags(container)).toEqual(['png', 'txt']);
  });
});
