// @vitest-environment jsdom
import type { PreviewRule, RulePreview } from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders.tsx';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { installDomStubs, waitFor } from '../../../shared/testing/dom.ts';
import { PROTECTION_LOCALES } from '../locales/bundle.ts';
import { PreviewAnswer } from './PreviewAnswer.tsx';

/** The tables measure themselves; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const RULE: PreviewRule = {
  type: 'acl',
  entries: [
    { action: 'allow', condition: { field: 'ip', op: 'cidr', values: ['198.51.100.0/24'], negate: false } },
    { action: 'deny', condition: { field: 'header', op: 'equals', values: ['1'], header: 'X-Token', negate: false } },
    { action: 'deny', condition: { field: 'path', op: 'prefix', values: ['/wp-'], negate: false } },
  ],
};

const ANSWER: RulePreview = {
  site_id: 5,
  hours: 6,
  from: '2026-11-28T13:00:00Z',
  to: '2026-11-28T19:00:00Z',
  scanned: 56789,
  matched: 1300,
  stopped: 1234,
  stopped_addresses: 56,
  outcomes: { allow: 66, pass: 0, block: 1234, challenge: 0, delay: 0, ban: 0, log: 0 },
  addresses: 60,
  top: {
    addresses: [{ value: '203.0.113.9', requests: 1200 }],
    paths: [{ value: '/wp-login.php', requests: 1100 }],
    user_agents: [{ value: 'sqlmap/1.7', requests: 900 }],
    countries: [{ value: 'NL', requests: 800 }],
  },
  samples: [
    {
      time: '2026-11-28T18:59:00Z',
      client_ip: '203.0.113.9',
      country: 'NL',
      method: 'GET',
      host: 'shop.example.com',
      uri: '/wp-login.php?probe=1',
      status: 404,
      user_agent: 'sqlmap/1.7',
      referer: '',
      outcome: 'block',
    },
  ],
  rate_crossings: [],
  not_evaluated: [{ path: 'rule.entries[1].condition', reason: 'request headers are not logged' }],
};

const NOTHING: RulePreview = {
  ...ANSWER,
  hours: 24,
  matched: 0,
  stopped: 0,
  stopped_addresses: 0,
  addresses: 0,
  outcomes: { allow: 0, pass: 0, block: 0, challenge: 0, delay: 0, ban: 0, log: 0 },
  top: { addresses: [], paths: [], user_agents: [], countries: [] },
  samples: [],
  not_evaluated: [],
};

const Answer = ({ answer, rule }: { answer: RulePreview; rule: PreviewRule }) => {
  useLocales(PROTECTION_LOCALES);
  return <PreviewAnswer answer={answer} rule={rule} />;
};

describe('rule preview answer', () => {
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

  const show = (language: 'en-US' | 'zh-CN', answer: RulePreview, rule: PreviewRule = RULE) => {
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, language)} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <Answer answer={answer} rule={rule} />
        </QueryClientProvider>
      </AppProviders>,
    );
    return container;
  };
  const text = (container: HTMLElement, testId: string) =>
    container.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '';

  it('says how many requests from how many addresses it would have blocked, with the outcomes and top lists', async () => {
    const container = show('en-US', ANSWER);
    const sentence = await waitFor(() => text(container, 'rule-preview-sentence'));
    expect(sentence).toBe('In the last 6 h this would have blocked 1,234 requests from 56 addresses');
    expect(text(container, 'rule-preview-matched')).toBe(
      'Matched 1,300 of 56,789 requests in the log; distinct addresses: 60',
    );
    expect(text(container, 'rule-preview-outcomes')).toContain('Blocked 1,234');
    expect(text(container, 'rule-preview-outcomes')).toContain('Allowed 66');
    expect(text(container, 'rule-preview-top-addresses')).toContain('Top addresses');
    expect(text(container, 'rule-preview-top-addresses')).toContain('203.0.113.9');
    expect(text(container, 'rule-preview-top-paths')).toContain('/wp-login.php');
    expect(text(container, 'rule-preview-top-user_agents')).toContain('sqlmap/1.7');
    expect(text(container, 'rule-preview-top-countries')).toContain('800');
    expect(container.querySelector('[data-testid="rule-preview-crossings"]')).toBeNull();
  });

  it('names the entry whose header condition the log cannot answer', async () => {
    const container = show('en-US', ANSWER);
    const warning = await waitFor(() => text(container, 'rule-preview-not-evaluated'));
    expect(warning).toContain('Entry 2 (header X-Token): not evaluated, the access log does not keep request headers');
  });

  it('names a rule group line’s condition from its match, in Chinese', async () => {
    const match = {
      id: 3,
      user_id: 3,
      name: 'debug probes',
      conditions: [
        { field: 'path', op: 'prefix', values: ['/'], negate: false },
        { field: 'header', op: 'equals', values: ['1'], header: 'X-Debug', negate: false },
      ],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (!url.includes('/v1/cc-matchs')) throw new Error(`unexpected ${url}`);
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: { list: [match], total: 1 } }));
      }),
    );
    const group: PreviewRule = {
      type: 'rule_group',
      rules: [
        { match_id: 9, filter_id: 1, action: 'block', ban_seconds: 600 },
        { match_id: 3, filter_id: 1, action: 'block', ban_seconds: 600 },
      ],
    };
    const reason = 'condition 1: the access log does not keep the request header X-Debug; the line is left out';
    const container = show(
      'zh-CN',
      { ...ANSWER, not_evaluated: [{ path: 'rule.rules[1].match_id', condition: 1, reason }] },
      group,
    );
    await waitFor(() =>
      text(container, 'rule-preview-not-evaluated').includes(
        '第 2 行的条件 2（请求头 X-Debug）：未评估，访问日志不记录请求头',
      ),
    );
  });

  it('folds the samples away until they are opened', async () => {
    const container = show('en-US', ANSWER);
    const samples = await waitFor(() => container.querySelector<HTMLElement>('[data-testid="rule-preview-samples"]'));
    expect(samples.textContent).toContain('Sample requests (1)');
    expect(samples.textContent).not.toContain('/wp-login.php?probe=1');
    samples.querySelector<HTMLElement>('.ant-collapse-header')?.click();
    await waitFor(() => samples.textContent?.includes('GET shop.example.com/wp-login.php?probe=1'));
  });

  it('lists the addresses that would have crossed a rate', async () => {
    const crossing = { client_ip: '192.0.2.4', first_crossed_at: '2026-11-28T18:00:00Z', requests_over: 4321 };
    const container = show('en-US', { ...ANSWER, rate_crossings: [crossing] });
    const table = await waitFor(() => text(container, 'rule-preview-crossings'));
    expect(table).toContain('192.0.2.4');
    expect(table).toContain('4,321');
    expect(container.textContent).toContain('Addresses over the rate');
  });

  it('says so when it would not have blocked anything', async () => {
    const container = show('en-US', NOTHING);
    const sentence = await waitFor(() => text(container, 'rule-preview-sentence'));
    expect(sentence).toBe('In the last 24 h this would not have blocked any request');
    expect(container.querySelector('[data-testid="rule-preview-not-evaluated"]')).toBeNull();
    expect(container.querySelector('[data-testid="rule-preview-samples"]')).toBeNull();
  });

  it('speaks of one request and one address in the singular', async () => {
    const container = show('en-US', { ...NOTHING, stopped: 1, stopped_addresses: 1 });
    expect(await waitFor(() => text(container, 'rule-preview-sentence'))).toBe(
      'In the last 24 h this would have blocked 1 request from 1 address',
    );
  });

  it('reads in Chinese, numbers and all', async () => {
    const container = show('zh-CN', ANSWER);
    const sentence = await waitFor(() => text(container, 'rule-preview-sentence'));
    expect(sentence).toBe('过去 6 小时内，此规则将拦截来自 56 个地址的 1,234 个请求');
    expect(text(container, 'rule-preview-matched')).toBe('日志中的 56,789 个请求里有 1,300 个命中，来自 60 个不同地址');
    expect(text(container, 'rule-preview-not-evaluated')).toContain(
      '第 2 条（请求头 X-Token）：未评估，访问日志不记录请求头',
    );
    expect(text(container, 'rule-preview-outcomes')).toContain('拦截 1,234');
  });

  it('says so in Chinese when it would not have blocked anything', async () => {
    const container = show('zh-CN', NOTHING);
    expect(await waitFor(() => text(container, 'rule-preview-sentence'))).toBe(
      '过去 24 小时内，此规则不会拦截任何请求',
    );
  });
});
