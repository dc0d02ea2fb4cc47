import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';

/** A thin bar at the top while a route loads (a page chunk, a loader); shown after a short delay. */
export const ProgressBar = () => {
  const { t } = useTranslation();
  const loading = useNavigation().state !== 'idle';
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!loading) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), 150);
    return () => clearTimeout(timer);
  }, [loading]);
  if (!shown) return null;
  return <div className="rp-progress" role="progressbar" aria-label={t('layout.progress')} />;
};
