import { ERROR_PAGE_MAX_LENGTH, ERROR_PAGE_STATUSES, type ErrorPageStatus } from '@rampart/contracts';
import Form from 'antd/es/form';
import TextArea from 'antd/es/input/TextArea';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { errorPageRules } from './errorPageValues.ts';

const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
const PLACEHOLDER = '<!doctype html>\n<h1>…</h1>\n<p>…</p>';

/** One status: a switch for the site's own page and, while on, the page's HTML with a character count. */
const ErrorPageRow = ({ status }: { status: ErrorPageStatus }) => {
  const { t } = useTranslation();
  const enabled = Form.useWatch<boolean | undefined>(['error_pages', status, 'enabled']);
  const title = t(`sites.errorPages.status.${status}`);
  return (
    <div data-testid={`error-page-${status}`} style={{ borderTop: '1px solid #f0f0f0', paddingTop: 12 }}>
      <Form.Item
        name={['error_pages', status, 'enabled']}
        label={t('sites.errorPages.use', { status: title })}
        valuePropName="checked"
        extra={status === 'waf' ? t('sites.errorPages.wafHelp') : undefined}
      >
        <Switch />
      </Form.Item>
      {enabled === true && (
        <Form.Item
          name={['error_pages', status, 'html']}
          label={t('sites.errorPages.html', { status: title })}
          rules={errorPageRules(t).html}
        >
          <TextArea
            rows={8}
            spellCheck={false}
            placeholder={PLACEHOLDER}
            count={{ show: true, max: ERROR_PAGE_MAX_LENGTH }}
            styles={{ textarea: { fontFamily: MONOSPACE } }}
          />
        </Form.Item>
      )}
    </div>
  );
};

/** A site's own error pages on its edit page, saved with the site. */
export const ErrorPagesSection = () => {
  const { t } = useTranslation();
  return (
    <div data-testid="error-pages-section">
      <Typography.Paragraph type="secondary">{t('sites.errorPages.intro')}</Typography.Paragraph>
      {ERROR_PAGE_STATUSES.map((status) => (
        <ErrorPageRow key={status} status={status} />
      ))}
    </div>
  );
};
