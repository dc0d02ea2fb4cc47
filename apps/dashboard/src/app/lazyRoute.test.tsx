// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../shared/i18n/locales/bundle.ts';
import { useFrontLog } from '../shared/log/frontLog.ts';
import { lazyRoute } from './lazyRoute.tsx';

describe('lazyRoute', () => {
  it('turns a chunk that does not load into a page with the error and a retry', async () => {
    const load = lazyRoute(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const { Component } = await load();
    const container = document.createElement('div');
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const root = createRoot(container);
    act(() =>
      root.render(
        <I18nextProvider i18n={createI18n(COMMON_LOCALES, 'en-US')}>
          <Component />
        </I18nextProvider>,
      ),
    );
    expect(container.textContent).toContain('This page could not be loaded');
    expect(container.querySelector('button')?.textContent).toBe('Retry');
    expect(useFrontLog.getState().entries[0]?.message).toContain('Failed to fetch');
    act(() => root.unmount());
  });
});
