import type { UserPackageStanding } from '@rampart/contracts';
import type { ApiError } from '../../../shared/http/apiError.ts';

/** GET /v1/user-packages/standing: whether the account may create sites and streams. */
export type PackageStanding = UserPackageStanding;

/** The same key as the package pages' look-up: one call serves both. */
export const STANDING_KEY = ['user-packages', 'standing'] as const;

/** True when a create call would be refused with package_required: a package is needed and none is active. */
export const needsPackage = (standing: PackageStanding | undefined): boolean =>
  standing?.required === true && !standing.exempt && !standing.unlimited && standing.active === 0;

export const isPackageRequired = (error: Pick<ApiError, 'code'>): boolean => error.code === 'package_required';

export const BUY_PACKAGE_PATH = '/user-package/buy';
