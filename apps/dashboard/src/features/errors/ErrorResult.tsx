import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AntdScope } from '../../shared/antd/AntdScope.tsx';
import { useSession } from '../../shared/session/session.ts';

export type ErrorStatus = '403' | '404' | '500';

/** The 403 / 404 / 500 pages of spec §2. Home is '/', which sends each user type to its landing page. */
export const ErrorResult = ({ status }: { status: ErrorStatus }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useSession((state) => state.token !== null);
  return (
    <AntdScope>
      <Result
        status={status}
        title={status}
        subTitle={t(`route.${status}`)}
        data-testid={`error-${status}`}
        extra={
          <Button type="primary" onClick={() => navigate(signedIn ? '/' : '/login')}>
            {t('common.backHome')}
          </Button>
        }
      />
    </AntdScope>
  );
};
