import { AppError } from '../../errors.ts';
import { TaskFailure } from '../tasks/task-runner.ts';

interface HttpError {
  isAxiosError?: boolean;
  code?: string;
  message?: string;
}

const TLS_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** An ACME problem or transport error in plain words: ACME's `detail` passes through, prefixes go. */
export function plainDetail(error: unknown): string {
  const http = error as HttpError;
  if (http?.isAxiosError) {
    if (http.code && TLS_CODES.has(http.code)) {
      return `its HTTPS certificate is not trusted (${http.code}); a private ACME CA needs RAMPART_ACME_CA_FILE`;
    }
    return `it could not be reached (${http.code ?? http.message ?? 'network error'})`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    message
      .replace(/urn:ietf:params:acme:error:/g, '')
      .replace(/\s+/g, ' ')
      .trim() || 'no reason given'
  );
}

/** Wraps one step's failure: readable failures pass through, the rest get the step's words in front. */
export async function acmeStep<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TaskFailure || error instanceof AppError) throw error;
    throw new TaskFailure(`${what}: ${plainDetail(error)}`);
  }
}
