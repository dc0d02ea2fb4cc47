import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import { useFeedback } from '../../shared/feedback/FeedbackProvider.tsx';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { TWO_FACTOR_LOCALES } from './locales/bundle.ts';

/**
 * The admin's reset of a user's two-factor sign-in (DELETE /v1/users/{id}/two-factor), for a user
 * who lost the phone and the recovery codes; /sys/user can put it in its edit drawer.
 */
export const ResetTwoFactorButton = ({ userId, account }: { userId: number; account: string }) => {
  const { t } = useLocales(TWO_FACTOR_LOCALES);
  const http = useHttp();
  const feedback = useFeedback();
  const reset = async () => {
    await http.delete<null>(`/v1/users/${userId}/two-factor`);
    feedback.success(t('twoFactor.reset.done', { account }));
  };
  return (
    <Popconfirm
      title={t('twoFactor.reset.confirm', { account })}
      okText={t('twoFactor.reset.button')}
      cancelText={t('twoFactor.cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={() => reset().catch(() => undefined)}
    >
      <Button danger size="small">
        {t('twoFactor.reset.button')}
      </Button>
    </Popconfirm>
  );
};
