import type { ActiveAnnouncement } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import { useEffect, useState } from 'react';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { ANNOUNCEMENTS_LOCALES } from './locales/bundle.ts';

/**
 * The announcements shown now, above the login form, in the page's language. Asked each time the
 * page opens (not kept like the sign-in settings): an announcement can start or end at any moment.
 * Without TanStack Query, which only the console loads.
 */
export const LoginAnnouncements = () => {
  const { i18n } = useLocales(ANNOUNCEMENTS_LOCALES);
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
  const zh = i18n.language === 'zh-CN';
  return (
    <div data-testid="login-announcements" style={{ display: 'grid', gap: 8, marginBottom: 16 }}>
      {active.map((announcement) => (
        <Alert
          key={announcement.id}
          type="info"
          showIcon
          title={zh ? announcement.title_zh : announcement.title_en}
          description={
            <span style={{ whiteSpace: 'pre-wrap' }}>{zh ? announcement.text_zh : announcement.text_en}</span>
          }
        />
      ))}
    </div>
  );
};
