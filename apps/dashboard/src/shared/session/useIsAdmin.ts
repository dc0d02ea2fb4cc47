import { USER_TYPE } from '@rampart/contracts';
import { useSession } from './session.ts';

/** Whether the signed-in user is an admin (type 1): admins' lists show every user's rows and their owners. */
export const useIsAdmin = (): boolean => useSession((state) => state.user?.type === USER_TYPE.admin);
