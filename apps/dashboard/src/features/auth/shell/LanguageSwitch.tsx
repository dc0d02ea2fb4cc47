import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { useTranslation } from 'react-i18next';
import { applyLanguage } from '../../../shared/i18n/i18n.ts';
import { PlainIcon } from './PlainIcon.tsx';
import { useSiteLanguages } from './useSiteLanguages.ts';

/** One plain button per language on the public pages; the console has its own dropdown. */
export const LanguageSwitch = () => {
  const { i18n, t } = useTranslation();
  const languages = useSiteLanguages();
  return (
    <fieldset aria-label={t('common.language')} data-testid="language-switch" className="rp-language">
      <PlainIcon icon={GlobalOutlined} />
      {languages.map(({ code, label }) => (
        <button
          key={code}
          type="button"
          lang={code}
          aria-pressed={i18n.language === code}
          onClick={() => applyLanguage(i18n, code)}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
};
