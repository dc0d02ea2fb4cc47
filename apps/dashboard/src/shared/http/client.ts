import { ApiError, type ErrorParams } from './apiError.ts';
import { isEnvelope, LOGIN_REQUIRED } from './envelope.ts';
import { statusMessage, type Translate } from './statusMessage.ts';

export const REQUEST_TIMEOUT_MS = 60_000;
export const TOKEN_HEADER = 'Access-Token';

export type Query = Record<string, string | number | boolean | null | undefined>;
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Replaces the default 'msg - code' popup for this call; the promise still rejects. */
  onError?: (error: ApiError) => void;
  /** `reject`: a `login_required` answer only rejects, without the login redirect (the menu call). */
  loginRequired?: 'redirect' | 'reject';
  /** No popup and no front-end log entry: for optional calls whose failure is expected. */
  silent?: boolean;
}

export interface HttpClientConfig {
  getToken: () => string | null;
  /** A `login_required` answer: the session is gone. */
  onLoginRequired: () => void;
  /** Shows a failure to the user (an antd message from the App context). */
  notify: (text: string) => void;
  /** The popup text of a failure ('text - code' in the user's language); the server's 'msg - code' without it. */
  describe?: (error: ApiError) => string;
  translate: Translate;
  /** Every failure, for the front-end log. */
  onFailure?: (error: ApiError, method: Method) => void;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface HttpClient {
  request<T>(method: Method, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(path: string, options?: RequestOptions): Promise<T>;
  /** A file answer (not an envelope) as a Blob; failures are reported like any call. */
  download(path: string, options?: RequestOptions): Promise<Blob>;
  /** The default popup, for callers with their own handler that still want it. */
  notify(error: ApiError): void;
}

const withQuery = (path: string, query: Query | undefined): string => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
};

/** The envelope's `params` when they are figures by name; anything else is left out. */
const paramsOf = (body: object): ErrorParams | undefined => {
  const params: unknown = 'params' in body ? body.params : undefined;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const entries = Object.entries(params).filter(
    (entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number',
  );
  return Object.fromEntries(entries);
};

const readJson = async (response: Response): Promise<unknown> => {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
};

export const createHttpClient = (config: HttpClientConfig): HttpClient => {
  const timeoutMs = config.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const notify = (error: ApiError) => config.notify(config.describe ? config.describe(error) : error.display);

  const fail = (error: ApiError, method: Method, options: RequestOptions): never => {
    if (options.silent) throw error;
    config.onFailure?.(error, method);
    if (options.onError) options.onError(error);
    else notify(error);
    throw error;
  };

  const send = async (method: Method, url: string, options: RequestOptions) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = config.getToken();
    if (token) headers[TOKEN_HEADER] = token;
    const init: RequestInit = { method, headers, credentials: 'same-origin' };
    if (options.body instanceof Blob) {
      // A file (a release bundle) goes as it is.
      headers['Content-Type'] = 'application/octet-stream';
      init.body = options.body;
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    init.signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    try {
      return await (config.fetch ?? fetch)(url, init);
    } catch (cause) {
      // A caller that cancels (a query that is no longer needed) gets its own abort error, silently.
      if (options.signal?.aborted) throw cause;
      const error = timeout.aborted
        ? new ApiError('408', statusMessage(408, url, config.translate), 408, url)
        : new ApiError('network', config.translate('http.network'), 0, url);
      return fail(error, method, options);
    }
  };

  const request = async <T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> => {
    const url = withQuery(path, options.query);
    const response = await send(method, url, options);
    const body = await readJson(response);
    if (isEnvelope(body)) {
      if (body.code === 0) return body.data as T;
      const error = new ApiError(body.code, body.msg, response.status, url, paramsOf(body));
      if (body.code === LOGIN_REQUIRED) {
        if (!options.silent) config.onFailure?.(error, method);
        if (options.loginRequired !== 'reject') config.onLoginRequired();
        throw error;
      }
      return fail(error, method, options);
    }
    const error = response.ok
      ? new ApiError('bad_response', config.translate('http.badResponse'), response.status, url)
      : new ApiError(
          String(response.status),
          statusMessage(response.status, url, config.translate),
          response.status,
          url,
        );
    return fail(error, method, options);
  };

  const download = async (path: string, options: RequestOptions = {}): Promise<Blob> => {
    const url = withQuery(path, options.query);
    const response = await send('GET', url, options);
    if (response.ok && !response.headers.get('Content-Type')?.includes('application/json')) return response.blob();
    const body = await readJson(response);
    const error = isEnvelope(body)
      ? new ApiError(String(body.code), body.msg, response.status, url, paramsOf(body))
      : new ApiError(
          String(response.status),
          statusMessage(response.status, url, config.translate),
          response.status,
          url,
        );
    if (error.code === LOGIN_REQUIRED) {
      config.onLoginRequired();
      throw error;
    }
    return fail(error, 'GET', options);
  };

  return {
    request,
    download,
    get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
    put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
    delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
    notify,
  };
};
