import TranslationOutlined from '@ant-design/icons/TranslationOutlined';
import Dropdown from 'antd/es/dropdown';
import { useTranslation } from 'react-i18next';
import { applyLanguage } from '../../shared/i18n/i18n.ts';
import { isLanguage, LANGUAGES } from '../../shared/i18n/languages.ts';
import { HeaderButton } from './HeaderButton.tsx';

/** Spec §2: the language dropdown, listing the configured languages. */
export const LanguageMenu = () => {
  const { t, i18n } = useTranslation();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [i18n.language],
        items: LANGUAGES.map(({ code, label }) => ({ key: code, label: <span lang={code}>{label}</span> })),
        onClick: ({ key }) => {
          if (isLanguage(key)) applyLanguage(i18n, key);
        },
      }}
    >
      <HeaderButton label={t('layout.header.language')} data-testid="language-menu">
        <TranslationOutlined />
      </HeaderButton>
    </Dropdown>
  );
};
