import Button from 'antd/es/button';
import Result from 'antd/es/result';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AntdScope } from '../../shared/antd/AntdScope.tsx';
import { useSession } from '../../shared/session/session.ts';

export type ErrorStatus = '403' | '404' | '500';

/** The 403 / 404 / 500 pages of spec §2. Home is '/', which sends each user type to its landing page. */
interface ErrorResultProps {
  status: ErrorStatus;
  /** Why, in more words than the status's title, under it. */
  detail?: ReactNode;
  /** Buttons before "Back to home". */
  actions?: ReactNode;
}

export const ErrorResult = ({ status, detail, actions }: ErrorResultProps) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = useSession((state) => state.token !== null);
  return (
    <AntdScope>
      <Result
        status={status}
        title={status}
        subTitle={
          <>
            {t(`route.${status}`)}
            {detail}
          </>
        }
        data-testid={`error-${status}`}
        extra={
          <>
            {actions}
            <Button type="primary" onClick={() => navigate(signedIn ? '/' : '/login')}>
              {t('common.backHome')}
            </Button>
          </>
        }
      />
    </AntdScope>
  );
};
