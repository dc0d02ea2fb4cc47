import {
  type EdgeErrorPages,
  ERROR_PAGE_LANGUAGES,
  ERROR_PAGE_MAX_LENGTH,
  ERROR_PAGE_STATUSES,
  type ErrorPageLanguage,
  type ErrorPageStatus,
} from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Tabs from 'antd/es/tabs';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { ConfigCard } from './ConfigCard.tsx';
import { EDGE_SETTINGS_LOCALES } from './locales/bundle.ts';

/** Every status and language has a text box; an empty one keeps the built-in page. */
interface ErrorPagesForm {
  default_language: EdgeErrorPages['default_language'];
  pages: Record<ErrorPageStatus, Record<ErrorPageLanguage, string>>;
}

const toForm = (value: EdgeErrorPages): ErrorPagesForm => ({
  default_language: value.default_language,
  pages: Object.fromEntries(
    ERROR_PAGE_STATUSES.map((status) => [
      status,
      Object.fromEntries(ERROR_PAGE_LANGUAGES.map((language) => [language, value.pages[status]?.[language] ?? ''])),
    ]),
  ) as ErrorPagesForm['pages'],
});

const fromForm = (values: ErrorPagesForm): EdgeErrorPages => {
  const pages: EdgeErrorPages['pages'] = {};
  for (const status of ERROR_PAGE_STATUSES) {
    const written = ERROR_PAGE_LANGUAGES.filter((language) => (values.pages?.[status]?.[language] ?? '').trim() !== '');
    if (written.length > 0)
      pages[status] = Object.fromEntries(written.map((language) => [language, values.pages[status][language]]));
  }
  return { default_language: values.default_language, pages };
};

const FIELDS = ['default_language', 'pages'] as const;

/** Spec §2 /config/error (admin:config): the edges' error pages (configs global-0-edge-error_pages). */
export const Component = () => {
  const { t } = useLocales(EDGE_SETTINGS_LOCALES);
  const f = (key: string, options: Record<string, unknown> = {}) => t(`edgeSettings.errors.${key}`, options);
  const languageName = (language: ErrorPageLanguage) => (language === 'zh-CN' ? '简体中文' : 'English');
  return (
    <ConfigCard name="errors" title={f('title')} help={f('help')} toForm={toForm} fromForm={fromForm} fields={FIELDS}>
      <Form.Item name="default_language" label={f('defaultLanguage')} extra={f('defaultLanguageHelp')}>
        <Radio.Group
          options={ERROR_PAGE_LANGUAGES.map((language) => ({ value: language, label: languageName(language) }))}
        />
      </Form.Item>
      <Tabs
        items={ERROR_PAGE_STATUSES.map((status) => ({
          key: status,
          label: status === 'waf' ? f('waf') : status,
          forceRender: true,
          children: (
            <>
              <p style={{ color: 'rgba(0,0,0,0.45)' }}>{f(`status.${status}`)}</p>
              {ERROR_PAGE_LANGUAGES.map((language) => {
                const label = f('pageLabel', {
                  status: status === 'waf' ? f('waf') : status,
                  language: languageName(language),
                });
                return (
                  <Form.Item
                    key={language}
                    name={['pages', status, language]}
                    label={label}
                    rules={[{ max: ERROR_PAGE_MAX_LENGTH, message: f('tooLong', { max: ERROR_PAGE_MAX_LENGTH }) }]}
                  >
                    <Input.TextArea
                      aria-label={label}
                      rows={6}
                      showCount
                      maxLength={ERROR_PAGE_MAX_LENGTH}
                      placeholder={f('placeholder')}
                      style={{ fontFamily: 'monospace' }}
                    />
                  </Form.Item>
                );
              })}
            </>
          ),
        }))}
      />
    </ConfigCard>
  );
};
