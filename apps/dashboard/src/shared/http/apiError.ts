/** The figures of a failure the envelope carries beside `msg` (`balance_insufficient`: balance, price, short). */
export type ErrorParams = Readonly<Record<string, string | number>>;

/**
 * A failed call. `code` is the envelope's code when the server sent one (`bad_credentials`), else
 * the HTTP status as a string (`'404'`), `'timeout'` or `'network'`; `message` is the server's
 * English `msg` (or the client's own text); what the user sees comes from errorText.ts.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly url: string;
  readonly params: ErrorParams | undefined;

  constructor(code: string, message: string, status: number, url: string, params?: ErrorParams) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.url = url;
    this.params = params;
  }

  /** 'msg - code' with the server's own msg, for the front-end log; popups use errorPopupText. */
  get display(): string {
    return `${this.message} - ${this.code}`;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
