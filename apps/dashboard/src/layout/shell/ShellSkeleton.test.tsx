// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { installDomStubs } from '../../shared/testing/dom.ts';
import { DEFAULT_LAYOUT_SETTINGS, type LayoutSettings } from '../settings/layoutSettings.ts';
import { useSettings } from '../settings/settingsStore.ts';
import { ShellSkeleton } from './ShellSkeleton.tsx';

/** The skeleton drawn with these layout settings in a window this wide, in zh-CN. */
const render = (settings: Partial<LayoutSettings>, windowWidth = 1280) => {
  installDomStubs();
  Object.defineProperty(window, 'innerWidth', { value: windowWidth, configurable: true });
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  useSettings.setState({ layout: { ...DEFAULT_LAYOUT_SETTINGS, ...settings } });
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n(COMMON_LOCALES, 'zh-CN')}>
        <ShellSkeleton />
      </I18nextProvider>,
    ),
  );
  const find = (selector: string) => container.querySelector<HTMLElement>(selector);
  const skeleton = {
    headerTheme: find('.rp-skeleton-header')?.dataset.theme,
    headerLogo: find('.rp-skeleton-header .rp-skeleton-logo')?.textContent ?? null,
    siderLogo: find('.rp-skeleton-sider .rp-skeleton-logo')?.textContent ?? null,
    siderWidth: find('.rp-skeleton-sider')?.style.width,
    tabs: find('.rp-skeleton-tabs') !== null,
    loading: find('[role="progressbar"]')?.getAttribute('aria-label'),
  };
  act(() => root.unmount());
  return skeleton;
};

describe('console skeleton', () => {
  afterEach(() => useSettings.getState().reset());

  it('lays out the default console: the named logo in a light header above a 256 px sider', () => {
    expect(render({})).toEqual({
      headerTheme: 'light',
      headerLogo: 'Rampart',
      siderLogo: null,
      siderWidth: '256px',
      tabs: false,
      loading: '加载中…',
    });
  });

  it('follows the stored settings: logo in the sider, dark header, tab bar', () => {
    expect(render({ headerStick: false, headerTheme: 'dark', tabs: true })).toMatchObject({
      headerTheme: 'dark',
      headerLogo: null,
      siderLogo: 'Rampart',
      siderWidth: '256px',
      tabs: true,
    });
  });

  it('starts the sider as the shell will: collapsed on a tablet, expanded on a desktop', () => {
    expect(render({}, 800)).toMatchObject({ headerLogo: '', siderWidth: '80px' });
    expect(render({ menuCollapse: true })).toMatchObject({ headerLogo: 'Rampart', siderWidth: '256px' });
    expect(render({ headerStick: false }, 800)).toMatchObject({ siderLogo: '', siderWidth: '80px' });
  });
});
