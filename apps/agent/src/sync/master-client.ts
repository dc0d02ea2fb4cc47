import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { errorText, type Logger, silentLogger } from '../logger.ts';
import { clockOffsetSeconds } from './clock.ts';
import { masterBase } from './master-list.ts';

/** The master answered with an error envelope (or an HTTP error without one). */
export class MasterError extends Error {
  readonly code: string;
  readonly status: number;

  /** A load balancer in front of the master said it is not there (502, 503, 504): another master may be. */
  readonly gateway: boolean;

  constructor(code: string, message: string, status: number, options: { gateway?: boolean } = {}) {
    super(`${code}: ${message}`);
    this.name = 'MasterError';
    this.code = code;
    this.status = status;
    this.gateway = options.gateway ?? false;
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
  /**
   * A body already serialised as JSON, sent as is instead of `body`, through node:http on a kept-alive
   * connection: fetch copies a body twice and wraps it in streams, a cost on every large log batch.
   */
  json?: string | Uint8Array<ArrayBuffer>;
  /** The whole call to one master, from asking to the answer's last byte (default: 15 s past the hold). */
  timeoutMs?: number;
  /**
   * A long poll: how long the master may hold the request before answering. An answer that has not
   * begun HOLD_MARGIN_MS after that is given up (the master went away without a word).
   */
  holdSeconds?: number;
  signal?: AbortSignal;
}

/** How long past its hold a long poll may wait for the master to begin answering. */
export const HOLD_MARGIN_MS = 5000;
const DEFAULT_TIMEOUT_MS = 15_000;
/** What a load balancer answers when the master behind it is gone or does not answer. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

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
 * Whether another master may answer where this one did not: the connection was refused or reset,
 * no answer came in time, or a load balancer said the master is not there. An answer of the master
 * itself (a refusal, a bad request) would be the same from any master.
 */
function masterAway(error: unknown): boolean {
  return error instanceof MasterError ? error.gateway : true;
}

/** How an answer reads, whichever way the request went. */
interface Answer {
  status: number;
  date: string | null;
  /** The body as text (decompressed); rejects when the call is given up meanwhile. */
  text: () => Promise<string>;
}

const DECODERS: Record<string, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** A failure of the connection, as fetch reports one: a TypeError with the error as its cause. */
const networkFailure = (cause: unknown) => new TypeError('the request to the master failed', { cause });

/** The body of an answer from node:http, decompressed as fetch would. */
function bodyText(response: IncomingMessage, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const fail = (error: unknown) => {
      signal.removeEventListener('abort', onAbort);
      reject(signal.aborted ? signal.reason : networkFailure(error));
    };
    const onAbort = () => response.destroy(signal.reason);
    if (signal.aborted) {
      response.destroy();
      return fail(signal.reason);
    }
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', fail);
    response.on('aborted', () => fail(new Error('the answer was cut off')));
    response.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const encoding = response.headers['content-encoding']?.trim().toLowerCase();
      const decode = encoding ? DECODERS[encoding] : undefined;
      if (!decode) return resolve(data.toString());
      decode(data).then(
        (plain) => resolve(plain.toString()),
        (error: unknown) => reject(networkFailure(error)),
      );
    });
  });
}

/** A network failure with its cause (`fetch failed` alone says little). */
function failureText(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const text = errorText(error);
  return cause instanceof Error ? `${text} (${(cause as NodeJS.ErrnoException).code ?? cause.message})` : text;
}

export interface MasterClientOptions {
  /** Told when the agent goes on to the next master. */
  log?: Logger;
}

/**
 * Calls the master's agent API: JSON bodies, the `{code,msg,data}` envelope unwrapped, `data`
 * checked against the contract schema. The agent knows one or several masters and uses one at a
 * time; a call the master in use does not answer goes to the next one (round robin), so every caller
 * fails over alike. When none answers, the last failure is thrown: the fetch error as is, or a
 * MasterError for a load balancer's answer.
 */
export class MasterClient {
  private list: string[];
  private current = 0;
  private readonly log: Logger;
  /** How far this node's clock is ahead of the master's, in seconds (clock.ts); null until an answer says. */
  clockOffsetSeconds: number | null = null;
  /** Connections kept open between ready-made bodies (log batches), one pool a scheme. */
  private readonly httpAgent = new HttpAgent({ keepAlive: true });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true });

  constructor(masters: string | readonly string[], options: MasterClientOptions = {}) {
    this.list = MasterClient.listOf(typeof masters === 'string' ? [masters] : masters);
    this.log = options.log ?? silentLogger;
  }

  private static listOf(masters: readonly string[]): string[] {
    if (masters.length === 0) throw new Error('the agent needs at least one master');
    return masters.map(masterBase);
  }

  /** The master in use: calls go there first. */
  get baseUrl(): string {
    return this.list[this.current] ?? this.list[0]!;
  }

  /** Every master the agent may use, in the order it goes through them. */
  get masters(): readonly string[] {
    return this.list;
  }

  /**
   * Replaces the list. The master in use stays in use when the new list names it; otherwise calls go
   * to the new list's first. True when the list changed.
   */
  useMasters(masters: readonly string[]): boolean {
    const list = MasterClient.listOf(masters);
    if (list.length === this.list.length && list.every((master, at) => master === this.list[at])) return false;
    const kept = list.indexOf(this.baseUrl);
    this.list = list;
    this.current = Math.max(0, kept);
    return true;
  }

  /** Follows the master to a new address (a transfer): it becomes the only one, every later call goes there. */
  moveTo(baseUrl: string): void {
    this.useMasters([baseUrl]);
  }

  /**
   * Asks the master in use and, while masters do not answer, the next ones, each at most once; the
   * one that answers stays in use. The caller's own abort ends the call where it is.
   */
  async call<T>(request: MasterRequest, schema: TSchema | null): Promise<T> {
    const body = request.json ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    const attempts = this.list.length;
    let failure: unknown;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const base = this.baseUrl;
      try {
        return await this.callOne<T>(base, request, body, schema);
      } catch (error) {
        if (request.signal?.aborted || !masterAway(error)) throw error;
        failure = error;
        this.failOver(base, error);
      }
    }
    throw failure;
  }

  /**
   * The next master after `from`, unless another call moved on from it already (calls that fail
   * together move one step, not one each).
   */
  private failOver(from: string, error: unknown): void {
    if (this.baseUrl !== from || this.list.length < 2) return;
    this.current = (this.current + 1) % this.list.length;
    this.log.warn('the master does not answer; going on to the next', {
      master: from,
      next: this.baseUrl,
      error: failureText(error),
    });
  }

  private async callOne<T>(
    base: string,
    request: MasterRequest,
    body: string | Uint8Array<ArrayBuffer> | undefined,
    schema: TSchema | null,
  ): Promise<T> {
    const holdMs = (request.holdSeconds ?? 0) * 1000;
    const timeout = AbortSignal.timeout(request.timeoutMs ?? holdMs + DEFAULT_TIMEOUT_MS);
    const unanswered = new AbortController();
    const signal = AbortSignal.any([timeout, unanswered.signal, ...(request.signal ? [request.signal] : [])]);
    // A master that went silent (its machine gone, no reset) is given up once it has not begun to
    // answer HOLD_MARGIN_MS after a held poll's hold, or after a plain call was sent; calls that
    // set their own timeout (large log batches, job results) keep it.
    const answerWithinMs =
      request.holdSeconds !== undefined
        ? holdMs + HOLD_MARGIN_MS
        : request.timeoutMs === undefined
          ? HOLD_MARGIN_MS
          : undefined;
    const answerDue =
      answerWithinMs === undefined
        ? undefined
        : setTimeout(
            () => unanswered.abort(new DOMException('the master did not begin to answer', 'TimeoutError')),
            answerWithinMs,
          );
    const sentAt = Date.now();
    let answer: Answer;
    try {
      answer =
        request.json === undefined
          ? await this.viaFetch(`${base}${request.path}`, request, body, signal)
          : await this.viaHttp(`${base}${request.path}`, request, request.json, signal);
    } finally {
      clearTimeout(answerDue);
    }
    const receivedAt = Date.now();
    // A long-poll is answered when it ends, not when it was asked: only a quick answer times the clock.
    if (receivedAt - sentAt < 5_000) {
      const offset = clockOffsetSeconds(answer.date, receivedAt, receivedAt - sentAt);
      if (offset !== null) this.clockOffsetSeconds = offset;
    }
    const text = await answer.text();
    const { status } = answer;
    const gateway = GATEWAY_STATUSES.has(status);
    let envelope: { code?: unknown; msg?: unknown; data?: unknown };
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      throw new MasterError(`http_${status}`, 'the master did not answer JSON', status, { gateway });
    }
    if (envelope.code !== 0 || status < 200 || status > 299) {
      const code = typeof envelope.code === 'string' ? envelope.code : `http_${status}`;
      const message = typeof envelope.msg === 'string' ? envelope.msg : '';
      throw new MasterError(code, message, status, { gateway });
    }
    if (schema && !validatorFor(schema).Check(envelope.data)) {
      throw new MasterError('bad_answer', `the answer to ${request.path} does not match the contract`, 502);
    }
    return envelope.data as T;
  }

  private async viaFetch(
    url: string,
    request: MasterRequest,
    body: string | Uint8Array<ArrayBuffer> | undefined,
    signal: AbortSignal,
  ): Promise<Answer> {
    const response = await fetch(url, {
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
    return { status: response.status, date: response.headers.get('date'), text: () => response.text() };
  }

  /**
   * A ready body through node:http(s), answered and failing as fetch would: network failures as a
   * TypeError with their cause, the signal's reason when it aborts. A redirect (which fetch follows)
   * is left to fetch: the request is made again through it.
   */
  private viaHttp(
    url: string,
    request: MasterRequest,
    json: string | Uint8Array<ArrayBuffer>,
    signal: AbortSignal,
  ): Promise<Answer> {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const bytes = typeof json === 'string' ? Buffer.from(json) : json;
    return new Promise<Answer>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => outgoing.destroy(signal.reason);
      const options = {
        method: request.method,
        agent: secure ? this.httpsAgent : this.httpAgent,
        headers: {
          accept: 'application/json',
          'accept-encoding': 'gzip',
          'content-type': 'application/json',
          'content-length': bytes.length,
          ...request.headers,
        },
      };
      const outgoing = (secure ? httpsRequest : httpRequest)(target, options, (response) => {
        signal.removeEventListener('abort', onAbort);
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location !== undefined) {
          response.resume();
          resolve(this.viaFetch(url, request, json, signal));
          return;
        }
        const date = response.headers.date ?? null;
        resolve({ status, date, text: () => bodyText(response, signal) });
      });
      outgoing.on('error', (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? signal.reason : networkFailure(error));
      });
      signal.addEventListener('abort', onAbort, { once: true });
      outgoing.end(bytes);
    });
  }
}
