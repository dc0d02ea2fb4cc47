import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../i18n/i18n.ts';
import { COMMON_LOCALES } from '../i18n/locales/bundle.ts';
import { ApiError } from './apiError.ts';
import { createHttpClient, type HttpClientConfig } from './client.ts';
import { errorPopupText } from './errorText.ts';

const i18n = createI18n(COMMON_LOCALES, 'en-US');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const translate = (key: string, values?: Record<string, string>) => i18n.t(key, values ?? {});

const setup = (
  respond: (url: string, init: RequestInit) => Promise<Response>,
  overrides: Pick<HttpClientConfig, 'timeoutMs'> = {},
) => {
  const fetchMock = vi.fn(respond);
  const config = {
    getToken: vi.fn((): string | null => null),
    onLoginRequired: vi.fn(),
    notify: vi.fn((_text: string) => undefined),
  };
  const client = createHttpClient({ ...config, ...overrides, translate, fetch: fetchMock as unknown as typeof fetch });
  return { client, config, fetchMock };
};

describe('http client', () => {
  it('unwraps data from a code-0 envelope', async () => {
    const { client } = setup(async () => json(200, { code: 0, msg: 'ok', data: { open: true } }));
    await expect(client.get('/v1/common/register-info')).resolves.toEqual({ open: true });
  });

  it('sends the Access-Token header only when signed in', async () => {
    const { client, config, fetchMock } = setup(async () => json(200, { code: 0, msg: 'ok', data: null }));
    await client.get('/v1/a');
    config.getToken.mockReturnValue('secret');
    await client.get('/v1/b');
    const headers = fetchMock.mock.calls.map(([, init]) => init.headers as Record<string, string>);
    expect(headers[0]?.['Access-Token']).toBeUndefined();
    expect(headers[1]?.['Access-Token']).toBe('secret');
  });

  it('builds the query string without empty values and sends JSON bodies', async () => {
    const { client, fetchMock } = setup(async () => json(200, { code: 0, msg: 'ok', data: null }));
    await client.get('/v1/user/login-policy', { query: { account: 'a b', page: undefined, limit: null } });
    await client.post('/v1/login', { account: 'admin' });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/v1/user/login-policy?account=a+b');
    expect(fetchMock.mock.calls[1]?.[1]).toMatchObject({
      method: 'POST',
      body: '{"account":"admin"}',
      headers: { 'Content-Type': 'application/json' },
    });
  });

  it("shows 'msg - code' for a 4xx answer with an envelope and rejects with its code", async () => {
    const { client, config } = setup(async () =>
      json(400, { code: 'bad_credentials', msg: 'Wrong account or password', data: null }),
    );
    const failure = client.post('/v1/login', {});
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'bad_credentials', status: 400 });
    expect(config.notify).toHaveBeenCalledWith('Wrong account or password - bad_credentials');
  });

  it('keeps the envelope params and words the popup with describe', async () => {
    const zh = createI18n(COMMON_LOCALES, 'zh-CN');
    const params = { balance: '0.00', price: '290.00', short: '290.00', stray: { nested: true } };
    const fetchMock = vi.fn(async () =>
      json(402, { code: 'balance_insufficient', msg: 'the balance does not cover it', data: null, params }),
    );
    const notify = vi.fn((_text: string) => undefined);
    const client = createHttpClient({
      getToken: () => null,
      onLoginRequired: vi.fn(),
      notify,
      describe: (error) => errorPopupText(error, zh),
      translate,
      fetch: fetchMock as unknown as typeof fetch,
    });
    await expect(client.post('/v1/user-packages', {})).rejects.toMatchObject({
      params: { balance: '0.00', price: '290.00', short: '290.00' },
    });
    expect(notify).toHaveBeenCalledWith('余额不足：当前余额 0.00，需支付 290.00，还差 290.00 - balance_insufficient');
  });

  it('turns login_required into the login redirect without a popup', async () => {
    const { client, config } = setup(async () => json(401, { code: 'login_required', msg: 'sign in', data: null }));
    await expect(client.get('/v1/common/auth')).rejects.toMatchObject({ code: 'login_required' });
    expect(config.onLoginRequired).toHaveBeenCalledOnce();
    expect(config.notify).not.toHaveBeenCalled();
  });

  it("lets the caller's handler replace the popup", async () => {
    const { client, config } = setup(async () => json(409, { code: 'account_exists', msg: 'taken', data: null }));
    const onError = vi.fn();
    await expect(client.post('/v1/user', {}, { onError })).rejects.toMatchObject({ code: 'account_exists' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'account_exists', message: 'taken' }));
    expect(config.notify).not.toHaveBeenCalled();
  });

  it('maps HTTP statuses without an envelope to the spec §8 texts, 404 with the URL', async () => {
    const statuses = [400, 401, 403, 404, 408, 500, 501, 502, 503, 504, 505];
    const { client, config } = setup(async (url) => new Response('<html>', { status: Number(url.split('/').pop()) }));
    for (const status of statuses) await client.get(`/v1/status/${status}`).catch(() => undefined);
    expect(config.notify.mock.calls.map(([text]) => text)).toEqual([
      'request error - 400',
      'unauthorized, please log in - 401',
      'access denied - 403',
      'address error: /v1/status/404 - 404',
      'timeout - 408',
      'internal server error - 500',
      'not implemented - 501',
      'bad gateway - 502',
      'service unavailable - 503',
      'gateway timeout - 504',
      'HTTP version not supported - 505',
    ]);
  });

  it('gives up after the timeout (60 s by default) and reports it as 408', async () => {
    const hang = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const { client, config } = setup(hang, { timeoutMs: 20 });
    await expect(client.get('/v1/slow')).rejects.toMatchObject({ code: '408' });
    expect(config.notify).toHaveBeenCalledWith('timeout - 408');
  });

  it('stays quiet when the caller cancels', async () => {
    const hang = (_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
      );
    const { client, config } = setup(hang);
    const controller = new AbortController();
    const pending = client.get('/v1/slow', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeDefined();
    expect(config.notify).not.toHaveBeenCalled();
  });

  it('reports a network failure', async () => {
    const { client, config } = setup(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(client.get('/v1/x')).rejects.toMatchObject({ code: 'network' });
    expect(config.notify).toHaveBeenCalledWith('network error - network');
  });

  it('lets the menu call reject on login_required without the login redirect', async () => {
    const { client, config } = setup(async () => json(401, { code: 'login_required', msg: 'sign in', data: null }));
    await expect(client.get('/v1/common/menu2', { loginRequired: 'reject' })).rejects.toMatchObject({
      code: 'login_required',
    });
    expect(config.onLoginRequired).not.toHaveBeenCalled();
  });

  it('keeps silent calls out of the popup and the front-end log', async () => {
    const onFailure = vi.fn();
    const notify = vi.fn();
    const client = createHttpClient({
      getToken: () => null,
      onLoginRequired: vi.fn(),
      notify,
      onFailure,
      translate,
      fetch: (async () => new Response('missing', { status: 404 })) as typeof fetch,
    });
    await expect(client.post('/api/system/i18n/list', {}, { silent: true })).rejects.toMatchObject({ code: '404' });
    expect(notify).not.toHaveBeenCalled();
    expect(onFailure).not.toHaveBeenCalled();
  });

  it('downloads a file answer as a blob and reports an envelope failure', async () => {
    const { client, config } = setup(async (url) =>
      url.endsWith('/pem')
        ? new Response('-----BEGIN CERTIFICATE-----', {
            status: 200,
            headers: { 'Content-Type': 'application/x-pem-file' },
          })
        : json(404, { code: 'not_found', msg: 'no such certificate', data: null }),
    );
    await expect((await client.download('/v1/certs/1/pem')).text()).resolves.toBe('-----BEGIN CERTIFICATE-----');
    await expect(client.download('/v1/certs/2/missing')).rejects.toMatchObject({ code: 'not_found' });
    expect(config.notify).toHaveBeenCalledWith('no such certificate - not_found');
  });
});
