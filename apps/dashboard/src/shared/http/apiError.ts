/**
 * A failed call. `code` is the envelope's code when the server sent one (`bad_credentials`), else
 * the HTTP status as a string (`'404'`), `'timeout'` or `'network'`; `message` is what the user sees.
 */
export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly url: string;

  constructor(code: string, message: string, status: number, url: string) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.url = url;
  }

  /** The popup text of spec §8: 'msg - code'. */
  get display(): string {
    return `${this.message} - ${this.code}`;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
