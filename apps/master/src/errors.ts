import { ERROR_STATUS, type ErrorCode } from '@rampart/contracts';

/** A failure the caller can act on: sent as `{code, msg, data: null}` with the code's HTTP status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
  }
}

export const invalidParam = (field: string, rule: string) => new AppError('invalid_param', `${field}: ${rule}`);
