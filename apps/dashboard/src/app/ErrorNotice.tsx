import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

const BOX: CSSProperties = { padding: '64px 24px', textAlign: 'center', color: 'rgba(0,0,0,0.88)' };
const BUTTON: CSSProperties = {
  marginTop: 16,
  height: 32,
  padding: '0 16px',
  border: 0,
  borderRadius: 6,
  background: '#1677ff',
  color: '#fff',
  cursor: 'pointer',
  font: 'inherit',
};

/**
 * What shows instead of a page that failed: its code did not load (or not within 120 s), or it
 * threw while rendering. Plain elements, because the code of anything richer may be what failed.
 * Retry loads the page again from the server.
 */
export const ErrorNotice = ({ chunk }: { chunk: boolean }) => {
  const { t } = useTranslation();
  return (
    <div role="alert" data-testid="route-error" style={BOX}>
      <h2 style={{ fontSize: 20, fontWeight: 600, margin: 0 }}>
        {t(chunk ? 'common.error.chunkTitle' : 'common.error.renderTitle')}
      </h2>
      <p style={{ color: 'rgba(0,0,0,0.45)' }}>{t(chunk ? 'common.error.chunkText' : 'common.error.renderText')}</p>
      <button type="button" style={BUTTON} onClick={() => window.location.reload()}>
        {t('common.error.retry')}
      </button>
    </div>
  );
};
