import GlobalOutlined from '@ant-design/icons/GlobalOutlined';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import { applyLanguage } from './i18n.ts';
import { LANGUAGES } from './languages.ts';

/** One button per language (a menu would cost the login page ~30 kB of JavaScript). */
export const LanguageSwitch = () => {
  const { i18n, t } = useTranslation();
  return (
    <fieldset
      aria-label={t('common.language')}
      data-testid="language-switch"
      style={{ display: 'flex', border: 0, margin: 0, padding: 0 }}
    >
      <GlobalOutlined aria-hidden style={{ alignSelf: 'center', marginRight: 4 }} />
      {LANGUAGES.map(({ code, label }) => (
        <Button
          key={code}
          type="text"
          size="small"
          lang={code}
          aria-pressed={i18n.language === code}
          style={{ fontWeight: i18n.language === code ? 600 : 400 }}
          onClick={() => applyLanguage(i18n, code)}
        >
          {label}
        </Button>
      ))}
    </fieldset>
  );
};
