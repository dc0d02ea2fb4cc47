import './auth.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthFooter } from './AuthFooter.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

/** The frame of the public pages: app name, language switch, a card and the footer (plain elements, no antd). */
export const AuthShell = ({ title, children }: { title: string; children: ReactNode }) => {
  const { t } = useTranslation();
  return (
    <div className="rp-auth">
      <div className="rp-auth-top">
        <LanguageSwitch />
      </div>
      <main className="rp-auth-main">
        <div className="rp-auth-brand">{t('common.appName')}</div>
        <p className="rp-auth-tagline">{t('auth.shell.tagline')}</p>
        <section className="rp-auth-card" aria-labelledby="auth-title">
          <h1 id="auth-title">{title}</h1>
          {children}
        </section>
      </main>
      <AuthFooter />
    </div>
  );
};
