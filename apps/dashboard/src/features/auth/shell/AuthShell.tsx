import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../../shared/i18n/LanguageSwitch.tsx';
import { AuthFooter } from './AuthFooter.tsx';

// Plain elements on purpose: antd Card and Typography would add ~40 kB to the login page.
const PAGE: CSSProperties = { minHeight: '100vh', display: 'flex', flexDirection: 'column', background: '#f5f7fa' };
const MAIN: CSSProperties = { flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', padding: 16 };
const CARD: CSSProperties = {
  width: '100%',
  maxWidth: 400,
  background: '#fff',
  borderRadius: 8,
  padding: '24px 32px',
  boxShadow: '0 1px 2px rgba(0,0,0,0.06), 0 2px 8px rgba(0,0,0,0.06)',
};

/** The frame of the public pages: app name, language switch, a card and the footer. */
export const AuthShell = ({ title, children }: { title: string; children: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <div style={PAGE}>
      <div style={{ display: 'flex', justifyContent: 'flex-end', padding: '12px 24px' }}>
        <LanguageSwitch />
      </div>
      <main style={MAIN}>
        <div style={{ fontSize: 28, fontWeight: 600, marginTop: '6vh' }}>{t('common.appName')}</div>
        <p style={{ color: 'rgba(0,0,0,0.45)', margin: '4px 0 24px' }}>{t('auth.shell.tagline')}</p>
        <section style={CARD} aria-labelledby="auth-title">
          <h1 id="auth-title" style={{ fontSize: 20, fontWeight: 600, margin: '0 0 20px' }}>
            {title}
          </h1>
          {children}
        </section>
      </main>
      <AuthFooter />
    </div>
  );
};
