// @vitest-environment jsdom
import {
  ALIPAY_SECRETS,
  AlipaySettings,
  DEFAULT_ALIPAY_SETTINGS,
  DEFAULT_WXPAY_SETTINGS,
  SECRET_MASK,
  WXPAY_SECRETS,
  WxpaySettings,
} from '@rampart/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/AppProviders.tsx';
import { createI18n } from '../../../shared/i18n/i18n.ts';
import { COMMON_LOCALES } from '../../../shared/i18n/locales/bundle.ts';
import { buttonByText, inputByLabel, installDomStubs, typeInto, waitFor } from '../../../shared/testing/dom.ts';
import { paymentSettingsPath } from './api.ts';
import { PaymentSettingsTab } from './PaymentSettingsTab.tsx';
import { isSecret, PAYMENT_FIELDS } from './paymentFields.ts';

const STORED: WxpaySettings = {
  ...DEFAULT_WXPAY_SETTINGS,
  enabled: true,
  mchid: '1900000109',
  appid: 'wx1234567890abcdef',
  merchant_serial_no: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  merchant_private_key: SECRET_MASK,
  api_v3_key: SECRET_MASK,
  platform_public_key: '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----',
  platform_public_key_id: 'PUB_KEY_ID_0114232134912410000000000000',
  notify_base_url: 'https://panel.example.com',
};

const CERTIFICATES = {
  list: [
    {
      serial: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
      effective_at: Date.UTC(2026, 10, 1),
      expires_at: Date.UTC(2031, 10, 1),
      fetched_at: Date.UTC(2026, 10, 26),
      source: 'downloaded',
    },
  ],
  total: 1,
};

/** The text areas measure themselves; jsdom has no ResizeObserver. */
class StillObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

describe('payment settings tab', () => {
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

  /** Serves the stored settings; each PUT is recorded and answered by `answer`. */
  const open = (answer: (body: Record<string, unknown>) => Response, stored: WxpaySettings = STORED) => {
    const puts: Record<string, unknown>[] = [];
    const envelope = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'ok', data }));
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        if (url === paymentSettingsPath('alipay') && init.method === 'GET') return envelope(DEFAULT_ALIPAY_SETTINGS);
        if (url === `${paymentSettingsPath('wxpay')}/certificates`) return envelope(CERTIFICATES);
        if (url !== paymentSettingsPath('wxpay')) throw new Error(`unexpected ${url}`);
        if (init.method === 'GET') return envelope(stored);
        if (init.method !== 'PUT') throw new Error(`unexpected ${init.method} ${url}`);
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        puts.push(body);
        return answer(body);
      }),
    );
    const container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <AppProviders i18n={createI18n(COMMON_LOCALES, 'en-US')} onLoginRequired={vi.fn()}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <PaymentSettingsTab />
        </QueryClientProvider>
      </AppProviders>,
    );
    return { puts, card: () => container.querySelector<HTMLElement>('[data-testid="payment-wxpay"] form') };
  };
  const echo = (body: Record<string, unknown>) =>
    new Response(JSON.stringify({ code: 0, msg: 'ok', data: { ...body, api_v3_key: SECRET_MASK } }));

  it('edit every field of each schema, its secrets as secrets', () => {
    const schemas = { wxpay: [WxpaySettings, WXPAY_SECRETS], alipay: [AlipaySettings, ALIPAY_SECRETS] } as const;
    for (const [provider, [schema, secrets]] of Object.entries(schemas)) {
      const fields = PAYMENT_FIELDS[provider as keyof typeof PAYMENT_FIELDS];
      expect(['enabled', ...fields.map((field) => field.name)].sort(), provider).toEqual(
        Object.keys(schema.properties).sort(),
      );
      expect(fields.filter((field) => isSecret(field.kind)).map((field) => field.name)).toEqual([...secrets]);
    }
  });

  it('sends every field, text trimmed, and untouched secrets as the mask that keeps them', async () => {
    const { puts, card } = open(echo);
    const form = await waitFor(card);
    const mchid = await waitFor(() => inputByLabel(form, 'Merchant ID'));
    expect(inputByLabel(form, 'API v3 key').value).toBe(SECRET_MASK);
    expect(inputByLabel(form, 'Notify URL').value).toBe('https://panel.example.com/v1/wxpay/notify');
    typeInto(mchid, ' 1900000110 ');
    buttonByText(form, 'Save').click();
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ ...STORED, mchid: '1900000110' });
  });

  it('sends a replaced secret, and shows the server’s refusal at its field', async () => {
    const refusal = 'api_v3_key: must be exactly 32 characters, not 31';
    const { puts, card } = open(
      () => new Response(JSON.stringify({ code: 'invalid_param', msg: refusal, data: null }), { status: 400 }),
    );
    const form = await waitFor(card);
    await waitFor(() => inputByLabel(form, 'API v3 key'));
    const replace = [...form.querySelectorAll('button')].filter((button) => button.textContent?.trim() === 'Replace');
    expect(replace).toHaveLength(2);
    replace[1]?.click();
    const key = await waitFor(() => {
      const input = inputByLabel(form, 'API v3 key');
      return input.value === '' ? input : undefined;
    });
    expect(form.textContent).not.toContain('Required while the channel is enabled');
    typeInto(key, 'k'.repeat(31));
    buttonByText(form, 'Save').click();
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toMatchObject({ merchant_private_key: SECRET_MASK, api_v3_key: 'k'.repeat(31) });
    await waitFor(() => form.textContent?.includes('must be exactly 32 characters, not 31'));
  });

  it('lists the platform certificates by serial and validity while WeChat Pay verifies with certificates', async () => {
    const { card } = open(echo, { ...STORED, platform_public_key: '', platform_public_key_id: '' });
    await waitFor(card);
    const section = await waitFor(() =>
      document.body
        .querySelector<HTMLElement>('[data-testid="wxpay-certificates"]')
        ?.textContent?.includes('5157F09EFDC096DE15EBE81A47057A7232F1B8E1')
        ? document.body.querySelector<HTMLElement>('[data-testid="wxpay-certificates"]')
        : undefined,
    );
    expect(section?.textContent).toContain('Platform certificates');
    expect(section?.textContent).toContain(new Date(Date.UTC(2031, 10, 1)).toLocaleString('en-US'));
    expect(section?.textContent).toContain('Download now');
  });

  it('shows no certificates while WeChat Pay verifies with the platform public key', async () => {
    const { card } = open(echo);
    await waitFor(card);
    expect(document.body.querySelector('[data-testid="wxpay-certificates"]')).toBeNull();
  });
});
