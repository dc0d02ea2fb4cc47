import './auth.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '../../../shared/system/systemInfo.ts';
import { AuthFooter } from './AuthFooter.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

/** The frame of the public pages: site name, language switch, a card and the footer (plain elements, no antd). */
export const AuthShell = ({ title, children }: { title: string; children: ReactNode }) => {
  const { t } = useTranslation();
  // The name set in /sys/setting; the app's own name until it has loaded.
  const site = useSiteConfig();
  return (
    <div className="rp-auth">
      <div className="rp-auth-top">
        <LanguageSwitch />
      </div>
      <main className="rp-auth-main">
        <div className="rp-auth-brand" data-testid="auth-brand">
          {site?.site_name || t('common.appName')}
        </div>
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
