import { USER_TYPE } from '@rampart/contracts';
import { useSession } from '../../shared/session/session.ts';
import { OverviewPage } from './OverviewPage.tsx';

/** `/dashboard`: the service overview of the signed-in user's side of the console. */
export const Component = () => {
  const type = useSession((state) => state.user?.type);
  return <OverviewPage audience={type === USER_TYPE.admin ? 'admin' : 'user'} />;
};
