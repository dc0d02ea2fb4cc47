import type { ErrorEnvelope } from '@rampart/contracts';

export interface SuccessEnvelope<T> {
  code: 0;
  msg: string;
  data: T;
}

export type AnyEnvelope = SuccessEnvelope<unknown> | ErrorEnvelope;

export const LOGIN_REQUIRED = 'login_required';

/** True when a parsed body has the `{code, msg, data}` shape every `/v1` response uses. */
export const isEnvelope = (body: unknown): body is AnyEnvelope => {
  if (typeof body !== 'object' || body === null || !('code' in body) || !('msg' in body) || !('data' in body)) {
    return false;
  }
  return (body.code === 0 || typeof body.code === 'string') && typeof body.msg === 'string';
};
