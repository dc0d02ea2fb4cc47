import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { landingPath, useSession } from '../../shared/session/session.ts';

export type ErrorStatus = '403' | '404' | '500';

/** The 403 / 404 / 500 pages of spec §2: a result with a back-to-home button. */
export const ErrorResult = ({ status }: { status: ErrorStatus }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useSession((state) => state.token !== null);
  const user = useSession((state) => state.user);
  return (
    <Result
      status={status}
      title={status}
      subTitle={t(`route.${status}`)}
      data-testid={`error-${status}`}
      extra={
        <Button type="primary" onClick={() => navigate(signedIn ? landingPath(user) : '/login')}>
          {t('common.backHome')}
        </Button>
      }
    />
  );
};
