import { ErrorResult } from './ErrorResult.tsx';
import { ForbiddenReasonText, SignInAsCustomer } from './ForbiddenReasonText.tsx';
import type { ForbiddenReason } from './forbiddenReason.ts';

export const ForbiddenPage = ({ reason }: { reason?: ForbiddenReason }) => (
  <ErrorResult
    status="403"
    detail={reason && <ForbiddenReasonText reason={reason} />}
    actions={reason?.kind === 'type' && reason.canImpersonate && <SignInAsCustomer />}
  />
);
export const NotFoundPage = () => <ErrorResult status="404" />;
export const ServerErrorPage = () => <ErrorResult status="500" />;
