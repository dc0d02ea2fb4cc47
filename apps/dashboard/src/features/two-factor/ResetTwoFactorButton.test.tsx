// @vitest-environment jsdom
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, waitFor } from '../../shared/testing/dom.ts';
import { ResetTwoFactorButton } from './ResetTwoFactorButton.tsx';

/** The popup measures itself; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('two-factor reset button', () => {
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

  it("resets the user's two-factor sign-in only after the confirmation, and says so", async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push(`${init.method} ${url}`);
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: null }));
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <ResetTwoFactorButton userId={42} account="alice" />
      </AppProviders>,
    );
    (await waitFor(() => buttonByText(container, 'Reset two-factor sign-in'))).click();
    const popup = await waitFor(() => document.querySelector<HTMLElement>('.ant-popover'));
    expect(popup.textContent).toContain('alice signs in with the password alone');
    expect(calls).toEqual([]);
    buttonByText(popup, 'Reset two-factor sign-in').click();
    await waitFor(() => document.body.textContent?.includes('Two-factor sign-in of alice was reset'));
    expect(calls).toEqual(['DELETE /v1/users/42/two-factor']);
  });
});
