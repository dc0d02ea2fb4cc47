// @vitest-environment jsdom
import type { DnsDrift, LineGroupView } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { DnsDriftModal } from './DnsDriftModal.tsx';

const GROUP: LineGroupView = {
  id: 7,
  name: 'main',
  cname_domain_id: 1,
  host: 'lg1',
  fqdn: 'lg1.cdn.example.net',
  backup_group_id: null,
  is_default: true,
  records: [],
  node_count: 1,
  publish_error: '',
  published_at: null,
};

const drift = (differences: DnsDrift['differences']): DnsDrift => ({
  group_id: 7,
  group_name: 'main',
  fqdn: 'lg1.cdn.example.net',
  provider: 'dnspod',
  checked_at: '2026-11-26T01:00:00.000Z',
  sites_checked: 0,
  differences,
  error: '',
});

const DRIFTED = drift([
  {
    kind: 'missing',
    name: 'lg1.cdn.example.net',
    type: 'A',
    line: '电信',
    expected: { value: '192.0.2.20', ttl: 600, weight: null },
    actual: null,
    fields: [],
  },
  {
    kind: 'different',
    name: 'lg1.cdn.example.net',
    type: 'A',
    line: '',
    expected: { value: '192.0.2.10', ttl: 600, weight: 30 },
    actual: { value: '192.0.2.10', ttl: 3600, weight: 70 },
    fields: ['ttl', 'weight'],
  },
]);

/** The select measures itself; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('the Check DNS dialog', () => {
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

  it('shows the differences, repairs only after a confirmation, then shows what is left', async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const method = init.method ?? 'GET';
        calls.push(`${method} ${new URL(url, 'http://x').pathname}`);
        const data =
          method === 'POST' && url.endsWith('/v1/node-groups/7/drift/repair')
            ? drift([])
            : url.endsWith('/v1/node-groups/7/drift')
              ? DRIFTED
              : { list: [], total: 0 };
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <DnsDriftModal group={GROUP} onClose={vi.fn()} />
        </QueryClientProvider>
      </AppProviders>,
    );
    const table = await waitFor(() =>
      document.body.querySelector('[data-testid="dns-drift-table"]')?.textContent?.includes('Missing')
        ? document.body.querySelector('[data-testid="dns-drift-table"]')
        : null,
    );
    expect(table.textContent).toContain('192.0.2.20');
    expect(table.textContent).toContain('电信');
    expect(table.textContent).toContain('TTL 3600');
    expect(table.textContent).toContain('weight 70');
    expect(document.body.textContent).toContain('lg1.cdn.example.net at dnspod');

    buttonByText(document.body, 'Repair').click();
    await waitFor(() => document.body.textContent?.includes('Republish lg1.cdn.example.net'));
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
    buttonByText(document.body, 'Confirm').click();
    await waitFor(() => document.body.textContent?.includes('The provider holds exactly what this line group says.'));
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual(['POST /v1/node-groups/7/drift/repair']);
    expect(document.body.querySelector('[data-testid="dns-drift-table"]')?.textContent).toContain('No differences');
  });
});
