import type { SiteHealthCheck } from '@rampart/contracts';
import { AppError } from '../../errors.ts';

const invalid = (field: string, rule: string) => new AppError('invalid_param', `${field}: ${rule}`);

/**
 * Rules of a site's origin health check that its schema cannot express. Throws invalid_param naming
 * the field: a check that could outlast its interval.
 */
export function checkHealthCheck(check: SiteHealthCheck) {
  if (check.timeout > check.interval) {
    throw invalid('health_check/timeout', `must be at most the interval (${check.interval} seconds)`);
  }
}
