import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_CONFIG } from '../../app/config.ts';
import { useHttp } from '../http/HttpProvider.tsx';
import { loadRemoteTranslations } from './remoteTranslations.ts';

/** Once per page load, when the configuration asks for remote translations. */
export const useRemoteTranslations = () => {
  const http = useHttp();
  const { i18n } = useTranslation();
  useEffect(() => {
    if (APP_CONFIG.remoteTranslations) void loadRemoteTranslations(http, i18n);
  }, [http, i18n]);
};
