import { useMemo } from 'react';
import { useErrorText } from '../../shared/http/errorText.ts';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { USER_PACKAGES_LOCALES } from './locales/bundle.ts';
import type { RefusalWords } from './purchaseRefusal.ts';

/** The words of purchaseRefusal for this page: the server's English coupon reason only on an English page. */
export const useRefusalWords = (): RefusalWords => {
  const { t, i18n } = useLocales(USER_PACKAGES_LOCALES);
  const error = useErrorText();
  const english = i18n.language.startsWith('en');
  return useMemo(
    () => ({ error, coupon: (serverText) => (english ? serverText : t('userPackages.purchase.couponRefused')) }),
    [error, english, t],
  );
};
