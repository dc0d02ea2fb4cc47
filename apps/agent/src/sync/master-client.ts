import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { clockOffsetSeconds } from './clock.ts';

/** The master answered with an error envelope (or an HTTP error without one). */
export class MasterError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(code: string, message: string, status: number) {
    super(`${code}: ${message}`);
    this.name = 'MasterError';
    this.code = code;
    this.status = status;
  }

  /** Worth retrying later: the master is overloaded or restarting, not refusing this request. */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 429 || this.status === 408 || this.status === 0;
  }

  /** The credential or token was not accepted. */
  get unauthorized(): boolean {
    return this.status === 401 || this.status === 403 || this.code === 'login_required';
  }
}

export interface MasterRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** A body already serialised as JSON (sent as is, instead of `body`). */
  json?: string | Uint8Array<ArrayBuffer>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

interface Validator {
  Check(value: unknown): boolean;
}

const validators = new WeakMap<TSchema, Validator>();

function validatorFor(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (!validator) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}

/**
 * Calls the master's agent API: JSON bodies, the `{code,msg,data}` envelope unwrapped, `data`
 * checked against the contract schema. Network failures throw the fetch error as is.
 */
export class MasterClient {
  private base: string;
  /** How far this node's clock is ahead of the master's, in seconds (clock.ts); null until an answer says. */
  clockOffsetSeconds: number | null = null;

  constructor(baseUrl: string) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  get baseUrl(): string {
    return this.base;
  }

  /** Follows the master to a new address (a transfer): every later call goes there. */
  moveTo(baseUrl: string): void {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  async call<T>(request: MasterRequest, schema: TSchema | null): Promise<T> {
    const timeout = AbortSignal.timeout(request.timeoutMs ?? 15_000);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const sentAt = Date.now();
    const body = request.json ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    const response = await fetch(`${this.baseUrl}${request.path}`, {
      method: request.method,
      headers: {
        accept: 'application/json',
        'accept-encoding': 'gzip',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...request.headers,
      },
      body,
      signal,
    });
    const receivedAt = Date.now();
    // A long-poll is answered when it ends, not when it was asked: only a quick answer times the clock.
    if (receivedAt - sentAt < 5_000) {
      const offset = clockOffsetSeconds(response.headers.get('date'), receivedAt, receivedAt - sentAt);
      if (offset !== null) this.clockOffsetSeconds = offset;
    }
    const text = await response.text();
    let envelope: { code?: unknown; msg?: unknown; data?: unknown };
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      throw new MasterError(`http_${response.status}`, 'the master did not answer JSON', response.status);
    }
    if (envelope.code !== 0 || !response.ok) {
      const code = typeof envelope.code === 'string' ? envelope.code : `http_${response.status}`;
      throw new MasterError(code, typeof envelope.msg === 'string' ? envelope.msg : '', response.status);
    }
    if (schema && !validatorFor(schema).Check(envelope.data)) {
      throw new MasterError('bad_answer', `the answer to ${request.path} does not match the contract`, 502);
    }
    return envelope.data as T;
  }
}
