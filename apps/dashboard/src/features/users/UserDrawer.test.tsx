// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { USERS_LOCALES } from './locales/bundle.ts';
import { UserDrawer } from './UserDrawer.tsx';

/** The select measures itself; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

type Groups = readonly { id: number; name: string; is_default: boolean }[];
const SILVER: Groups = [
  { id: 2, name: 'Bronze', is_default: false },
  { id: 3, name: 'Silver', is_default: true },
];

describe('the user drawer’s group', () => {
  let root: Root | undefined;
  beforeEach(() => {
    installDomStubs();
    vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? StillObserver);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        throw new Error(`unexpected ${url}`);
      }),
    );
  });
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const render = (groups: Groups) =>
    root?.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US', [USERS_LOCALES])} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={client}>
          <UserDrawer user={undefined} groups={groups} onClose={vi.fn()} onGenerated={vi.fn()} />
        </QueryClientProvider>
      </AppProviders>,
    );
  /** What the group select shows as chosen. */
  const shownGroup = () =>
    document.querySelector('[aria-label="Group"]')?.closest('.ant-select-content')?.getAttribute('title');

  const open = (groups: Groups) => {
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    render(groups);
  };

  it('starts a new user in the default group', async () => {
    open(SILVER);
    expect(await waitFor(shownGroup)).toBe('Silver');
  });

  it('starts a new user in the default group when the groups arrive after the drawer opened', async () => {
    open([]);
    expect(await waitFor(shownGroup)).toBe('No group');
    render(SILVER);
    await waitFor(() => shownGroup() === 'Silver');
    expect(shownGroup()).toBe('Silver');
  });
});
