// @vitest-environment jsdom
import type { RulePreview } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import Form from 'antd/es/form';
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders.tsx';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { installDomStubs, waitFor } from '../../../shared/testing/dom.ts';
import { PROTECTION_LOCALES } from '../locales/bundle.ts';
import type { AclRow } from '../model/acl.ts';
import { ConditionsEditor } from '../rule/ConditionsEditor.tsx';
import { AclEditor } from '../site/AclEditor.tsx';
import { MatchPreview } from './LazyPreviews.tsx';
import { lastSiteKey } from './lastSite.ts';
import { aclPreviewRule, previewBody } from './previewRule.ts';

class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const ANSWER: RulePreview = {
  site_id: 5,
  hours: 24,
  from: '2026-11-27T19:00:00Z',
  to: '2026-11-28T19:00:00Z',
  scanned: 40,
  matched: 12,
  stopped: 12,
  stopped_addresses: 2,
  outcomes: { allow: 0, pass: 0, block: 12, challenge: 0, delay: 0, ban: 0, log: 0 },
  addresses: 2,
  top: { addresses: [], paths: [], user_agents: [], countries: [] },
  samples: [],
  rate_crossings: [],
  not_evaluated: [],
};

const BLOCK_TEST_NET: AclRow = {
  action: 'deny',
  condition: { field: 'ip', op: 'cidr', valuesText: '203.0.113.0/24\n198.51.100.7', negate: false },
};

const SITE = { id: 5, user_id: 3, domains: ['shop.example.com'] };

type Answer = { status?: number; body: object };

describe('rule preview panel', () => {
  let root: Root | undefined;
  let previews: unknown[];
  beforeEach(() => {
    installDomStubs();
    vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? StillObserver);
    previews = [];
  });
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  /** Answers the preview call with `answer`, site 5 with SITE, and the pickers' lists with nothing. */
  const stubApi = (answer: Answer) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url.endsWith('/v1/rules/preview')) {
          previews.push(JSON.parse(String(init.body)));
          return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
        }
        const data = url.includes('/v1/sites/5') ? SITE : { list: [], total: 0 };
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
      }),
    );

  const render = (children: ReactNode, initialValues: object) => {
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    const Editor = () => {
      useLocales(PROTECTION_LOCALES);
      return <Form initialValues={initialValues}>{children}</Form>;
    };
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <Editor />
        </QueryClientProvider>
      </AppProviders>,
    );
    return container;
  };
  const preview = async (container: HTMLElement) =>
    (await waitFor(() => container.querySelector<HTMLButtonElement>('[data-testid="rule-preview-run"]'))).click();

  it('previews on the editor’s site exactly the entries Save would send, and shows the answer', async () => {
    stubApi({ body: { code: 0, msg: 'ok', data: ANSWER } });
    const container = render(<AclEditor siteId={5} />, { acl: [BLOCK_TEST_NET] });
    await preview(container);
    await waitFor(() => container.textContent?.includes('this would have blocked 12 requests from 2 addresses'));
    expect(previews).toEqual([previewBody(5, 24, aclPreviewRule([BLOCK_TEST_NET]))]);
  });

  it('drops an answer once the draft changes: it was about another draft', async () => {
    stubApi({ body: { code: 0, msg: 'ok', data: ANSWER } });
    const container = render(<AclEditor siteId={5} />, { acl: [BLOCK_TEST_NET] });
    await preview(container);
    await waitFor(() => container.querySelector('[data-testid="rule-preview-answer"]'));
    const values = await waitFor(() => container.querySelector('textarea'));
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set?.call(values, '203.0.113.0/24');
    values.dispatchEvent(new Event('input', { bubbles: true }));
    await waitFor(() => container.querySelector('[data-testid="rule-preview-answer"]') === null);
    await preview(container);
    await waitFor(() => previews.length === 2);
    expect(previews[1]).toMatchObject({ rule: { entries: [{ condition: { values: ['203.0.113.0/24'] } }] } });
  });

  it('does not call while the draft breaks the form’s own rules', async () => {
    stubApi({ body: { code: 0, msg: 'ok', data: ANSWER } });
    const wrong: AclRow = { ...BLOCK_TEST_NET, condition: { ...BLOCK_TEST_NET.condition, valuesText: 'not-an-ip' } };
    const container = render(<AclEditor siteId={5} />, { acl: [wrong] });
    await preview(container);
    await waitFor(() => container.textContent?.includes('not-an-ip is not allowed'));
    expect(previews).toEqual([]);
    expect(container.querySelector('[data-testid="rule-preview-answer"]')).toBeNull();
  });

  it('shows the master’s refusal next to the field it names', async () => {
    const msg = 'body/rule/entries/0/condition/values/1: 198.51.100.7 is reserved';
    stubApi({ status: 400, body: { code: 'invalid_params', msg, data: null } });
    const container = render(<AclEditor siteId={5} />, { acl: [BLOCK_TEST_NET] });
    await preview(container);
    const error = await waitFor(() =>
      [...container.querySelectorAll('.ant-form-item-explain-error')].find((node) =>
        node.textContent?.includes('198.51.100.7 is reserved'),
      ),
    );
    expect(error.closest('.ant-form-item')?.querySelector('textarea')?.value).toContain('198.51.100.7');
    expect(previews).toHaveLength(1);
  });

  it('shows a refusal of its own controls in the panel, named', async () => {
    stubApi({ status: 400, body: { code: 'invalid_params', msg: 'hours: must be at most 24', data: null } });
    const container = render(<AclEditor siteId={5} />, { acl: [BLOCK_TEST_NET] });
    await preview(container);
    const problem = await waitFor(() => container.querySelector('[data-testid="rule-preview-problem"]'));
    expect(problem.textContent).toBe('Period: must be at most 24');
  });

  it('asks a match for a site and a filter before it calls', async () => {
    stubApi({ body: { code: 0, msg: 'ok', data: ANSWER } });
    const conditions = [{ field: 'path', op: 'prefix', valuesText: '/login', negate: false }];
    const container = render(
      <>
        <ConditionsEditor />
        <MatchPreview owner={3} />
      </>,
      { conditions },
    );
    await preview(container);
    const problem = await waitFor(() => container.querySelector('[data-testid="rule-preview-problem"]'));
    expect(problem.textContent).toBe('Site: Pick a site');
    root?.unmount();
    document.body.innerHTML = '';

    // The site previewed last is picked again.
    localStorage.setItem(lastSiteKey(undefined), '5');
    const again = render(
      <>
        <ConditionsEditor />
        <MatchPreview owner={3} />
      </>,
      { conditions },
    );
    await waitFor(() => again.textContent?.includes('shop.example.com'));
    await preview(again);
    await waitFor(
      () => again.querySelector('[data-testid="rule-preview-problem"]')?.textContent === 'Filter: Pick a filter',
    );
    expect(previews).toEqual([]);
  });
});
