import { useSession } from '../../../shared/session/session.ts';

export { useReachesEveryUser } from '../../sites/useReachesEveryUser.ts';

export const useUserId = (): number | undefined => useSession((state) => state.user?.id);

/** Whose matches, filters and rule groups a row of `owner` may use: the system's, and the owner's own. */
export const usableOwners = (owner: number): readonly number[] => (owner === 0 ? [0] : [0, owner]);
