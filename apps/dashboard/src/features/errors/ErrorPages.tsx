import { ErrorResult } from './ErrorResult.tsx';

export const ForbiddenPage = () => <ErrorResult status="403" />;
export const NotFoundPage = () => <ErrorResult status="404" />;
export const ServerErrorPage = () => <ErrorResult status="500" />;
