// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/AppProviders.tsx';
import { createI18n } from '../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../shared/i18n/locales/bundle.ts';
import { buttonByText, installDomStubs, typeInto, waitFor } from '../../shared/testing/dom.ts';
import { AgentCheckPanel } from './AgentCheckPanel.tsx';
import { TransferPanel } from './TransferPanel.tsx';

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

/** antd measures some controls; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('/sys/op panels', () => {
  let root: Root | undefined;
  let calls: Call[];
  beforeEach(() => {
    installDomStubs();
    vi.stubGlobal('ResizeObserver', globalThis.ResizeObserver ?? StillObserver);
    calls = [];
  });
  afterEach(() => {
    root?.unmount();
    document.body.innerHTML = '';
    vi.unstubAllGlobals();
  });

  const serve = (answer: (call: Call) => unknown) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        const call = {
          method: init.method ?? 'GET',
          path: new URL(url, 'http://x').pathname,
          body: init.body ? JSON.parse(String(init.body)) : undefined,
        };
        calls.push(call);
        return new Response(JSON.stringify({ code: 0, msg: 'ok', data: answer(call) }));
      }),
    );
  const render = (page: ReactNode) => {
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          {page}
        </QueryClientProvider>
      </AppProviders>,
    );
    return container;
  };

  it('runs the agents’ self-test and shows what is wrong on each node', async () => {
    const node = {
      expected_version: 7,
      agent_version: '1.0.0',
      nginx_config_ok: true,
      nginx_running: true,
      disk_free_bytes: 5 * 1024 ** 3,
      disk_total_bytes: 10 * 1024 ** 3,
      clock_skew_ms: 12,
      applied_version: 7,
    };
    serve(() => ({
      id: 1,
      created_at: '2026-11-26T04:00:00.000Z',
      nodes: [
        { ...node, node_id: 1, name: 'edge-ok', state: 'done', ok: true, problems: [] },
        {
          ...node,
          node_id: 2,
          name: 'edge-bad',
          state: 'done',
          ok: false,
          nginx_running: false,
          clock_skew_ms: 9000,
          problems: ['nginx is not running', "clock: 9000 ms off the master's"],
        },
      ],
    }));
    const container = render(<AgentCheckPanel />);
    (await waitFor(() => buttonByText(container, 'Run self-test'))).click();
    await waitFor(() => container.textContent?.includes('1 of 2 agents passed'));
    expect(calls).toEqual([{ method: 'POST', path: '/v1/maintain/agent-check', body: { wait: 10 } }]);
    const rows = [...container.querySelectorAll('tbody tr')].map((row) => row.textContent);
    expect(rows[0]).toContain('edge-ok');
    expect(rows[0]).toContain('Passed');
    expect(rows[0]).toContain('5.0 GB');
    expect(rows[1]).toContain('not running');
    expect(rows[1]).toContain("clock: 9000 ms off the master's");
  });

  it('refuses a transfer address with a path before asking, and asks for a confirmation', async () => {
    serve((call) => (call.path === '/v1/master/transfer-log' ? { op: null } : { id: 1 }));
    const container = render(<TransferPanel />);
    const address = await waitFor(() => container.querySelector<HTMLInputElement>('#new_master'));
    typeInto(address, 'https://cdn2.example.com/x;rm');
    buttonByText(container, 'Start transfer').click();
    await waitFor(() => container.textContent?.includes('http(s)://host[:port], nothing after it'));
    expect(document.querySelector('.ant-popconfirm')).toBeNull();
    typeInto(address, 'https://cdn2.example.com:8443');
    buttonByText(container, 'Start transfer').click();
    const confirm = await waitFor(() =>
      [...document.querySelectorAll<HTMLButtonElement>('.ant-popconfirm button')].find((button) =>
        button.textContent?.match(/OK/),
      ),
    );
    expect(document.body.textContent).toContain('Move every agent to https://cdn2.example.com:8443 once it answers?');
    confirm.click();
    await waitFor(() => calls.some((call) => call.path === '/v1/master/start-transfer'));
    expect(calls.filter((call) => call.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/v1/master/start-transfer',
        body: { new_master: 'https://cdn2.example.com:8443', wait_minutes: 60 },
      },
    ]);
  });
});
