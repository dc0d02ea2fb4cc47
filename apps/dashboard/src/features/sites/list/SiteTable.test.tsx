// @vitest-environment jsdom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { installDomStubs } from '../../../shared/testing/dom.ts';
import { SITES_LOCALES } from '../locales/bundle.ts';
import type { ListPage } from '../siteQueries.ts';
import { SiteTable } from './SiteTable.tsx';

const ACTIONS = { edit: () => {}, toggle: () => {}, remove: () => {} } as never;

/** The pagination's total line for a page of the list, in a language. */
const totalLine = (page: ListPage<never>, language: 'en-US' | 'zh-CN') => {
  installDomStubs();
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() =>
    root.render(
      <I18nextProvider i18n={createI18n(COMMON_LOCALES, language, [SITES_LOCALES])}>
        <SiteTable
          query={{ page: 1, limit: 20 }}
          onQueryChange={() => {}}
          page={page}
          loading={false}
          groups={[]}
          selected={[]}
          onSelect={() => {}}
          actions={ACTIONS}
        />
      </I18nextProvider>,
    ),
  );
  const text = container.querySelector('.ant-pagination-total-text')?.textContent;
  act(() => root.unmount());
  return text;
};

describe('site table totals', () => {
  it('counts the sites of an exact total', () => {
    expect(totalLine({ list: [], total: 42 }, 'en-US')).toBe('42 items');
    expect(totalLine({ list: [], total: 42 }, 'zh-CN')).toBe('共 42 条');
  });

  it('says "more than" when a broad search stopped counting', () => {
    const page = { list: [], total: 10_000, total_capped: true };
    expect(totalLine(page, 'en-US')).toBe('more than 10000 items');
    expect(totalLine(page, 'zh-CN')).toBe('超过 10000 条');
  });
});
