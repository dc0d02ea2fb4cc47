// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import type { CnameDomain } from './api.ts';
import { LineGroupDrawer } from './LineGroupDrawer.tsx';

const DOMAINS: CnameDomain[] = [
  { id: 3, domain: 'other.test', is_default: false, note: '', dnsapi_id: null, zone: '' },
  { id: 7, domain: 'cdn.example.test', is_default: true, note: '', dnsapi_id: null, zone: '' },
];

describe('the line group drawer', () => {
  let root: Root | undefined;
  beforeEach(() => installDomStubs());
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const render = (domains: readonly CnameDomain[]) =>
    root?.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <LineGroupDrawer group={null} groups={[]} domains={domains} onClose={vi.fn()} />
        </QueryClientProvider>
      </AppProviders>,
    );

  it('starts a new group on the default CNAME domain even when the domains arrive after it opened', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    render([]);
    await waitFor(() => document.body.textContent?.includes('One label: lg1 makes lg1.…'));
    render(DOMAINS);
    await waitFor(() => document.body.textContent?.includes('One label: lg1 makes lg1.cdn.example.test'));
    expect(document.body.textContent).not.toContain('lg1.other.test');
  });
});
