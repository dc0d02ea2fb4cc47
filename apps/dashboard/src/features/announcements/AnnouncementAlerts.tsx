import type { ActiveAnnouncement } from '@rampart/contracts';
import Alert from 'antd/es/alert';

/** The announcements shown now, each an info alert in the page's language. */
export const AnnouncementAlerts = ({ active, zh }: { active: readonly ActiveAnnouncement[]; zh: boolean }) => (
  <div data-testid="login-announcements" style={{ display: 'grid', gap: 8, marginBottom: 16 }}>
    {active.map((announcement) => (
      <Alert
        key={announcement.id}
        type="info"
        showIcon
        title={zh ? announcement.title_zh : announcement.title_en}
        description={<span style={{ whiteSpace: 'pre-wrap' }}>{zh ? announcement.text_zh : announcement.text_en}</span>}
      />
    ))}
  </div>
);
