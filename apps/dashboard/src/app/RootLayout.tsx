import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useMatches } from 'react-router';
import { useRemoteTranslations } from '../shared/i18n/useRemoteTranslations.ts';
import { deepestHandle, TITLE_SUFFIX } from './routeHandle.ts';

/** The page title is the route title plus a suffix (spec §2); `t` changes with the language. */
export const RootLayout = () => {
  const { t } = useTranslation();
  const title = deepestHandle(useMatches())?.title;
  useRemoteTranslations();
  useEffect(() => {
    document.title = title ? `${t(title)}${TITLE_SUFFIX}` : t('common.appName');
  }, [title, t]);
  return <Outlet />;
};
