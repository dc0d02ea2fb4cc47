import { PERMISSIONS } from '@rampart/contracts';
import { useAccess } from '../../shared/access/useAccess.ts';

/**
 * Whether the signed-in user reaches every customer's sites, streams, certificates and rules, as the
 * master's policy of those routes grants it (admin:user): their lists then show every owner's rows.
 */
export const useReachesEveryUser = (): boolean => useAccess([PERMISSIONS.adminUser]);
