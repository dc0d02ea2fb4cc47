import { OverviewPage } from './OverviewPage.tsx';

export const Component = () => <OverviewPage audience="user" />;
