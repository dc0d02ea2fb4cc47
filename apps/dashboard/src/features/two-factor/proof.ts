import type { TwoFactorProofBody } from '@rampart/contracts';

/** What proves the user: six digits or a recovery code go as `code`, anything else as the password. */
export const proofOf = (by: 'code' | 'password', value: string): TwoFactorProofBody =>
  by === 'code' ? { code: value.trim() } : { password: value };
