import type { ActiveAnnouncement } from '@rampart/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHttp } from '../../shared/http/HttpProvider.tsx';

// antd (about 40 kB gzip) loads only when there is something to show: most sign-ins have no announcement.
const AnnouncementAlerts = lazy(async () => ({
  default: (await import('./AnnouncementAlerts.tsx')).AnnouncementAlerts,
}));

/**
 * The announcements shown now, above the login form, in the page's language. Asked each time the
 * page opens (not kept like the sign-in settings): an announcement can start or end at any moment.
 * Without TanStack Query, which only the console loads.
 */
export const LoginAnnouncements = () => {
  const { i18n } = useTranslation();
  const http = useHttp();
  const [active, setActive] = useState<ActiveAnnouncement[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    http
      .get<ActiveAnnouncement[]>('/v1/common/announcements', { signal: controller.signal, silent: true })
      // An answer that is not a list (an older master) shows nothing rather than breaking the page.
      .then(
        (list) => setActive(Array.isArray(list) ? list : []),
        () => undefined,
      );
    return () => controller.abort();
  }, [http]);
  if (active.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <AnnouncementAlerts active={active} zh={i18n.language === 'zh-CN'} />
    </Suspense>
  );
};
