import { hasAccess } from '@rampart/contracts';
import { useSession } from '../session/session.ts';

/**
 * Spec §6: true when the signed-in user's access list holds at least one of the required entries
 * (or nothing is required). Without a user nothing that needs access is allowed.
 */
export const useAccess = (required: readonly string[] | undefined): boolean => {
  const access = useSession((state) => state.user?.access);
  if (!required || required.length === 0) return true;
  return access !== undefined && hasAccess(access, required);
};
