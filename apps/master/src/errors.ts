import { ERROR_STATUS, type ErrorCode, type ErrorParams } from '@rampart/contracts';

/**
 * A failure the caller can act on: sent as `{code, msg, data: null, params?}` with the code's HTTP
 * status. `msg` is the English sentence for API users; `params` carries the figures in it so a
 * client can word the failure in its own language.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly params: ErrorParams | undefined;

  constructor(code: ErrorCode, message: string, params?: ErrorParams) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.params = params ?? (code === 'invalid_param' ? fieldAndRule(message) : undefined);
  }
}

/** `field: rule`, the shape of every invalid_param message, as params; undefined for other wording. */
function fieldAndRule(message: string): ErrorParams | undefined {
  const match = /^([\w./[\]-]+): (.+)$/s.exec(message);
  return match ? { field: match[1] ?? '', rule: match[2] ?? '' } : undefined;
}

export const invalidParam = (field: string, rule: string) =>
  new AppError('invalid_param', `${field}: ${rule}`, { field, rule });
