import type { UrlAuthType } from '@rampart/contracts';
import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { examplePath, SIGNED_STRING, signedUrlExample } from './urlAuthValues.ts';

/** What a signed URL of the chosen scheme looks like for the site's first domain (a template, not a signature). */
export const SignedUrlExample = ({ domain }: { domain: string }) => {
  const { t } = useTranslation();
  const type = Form.useWatch<UrlAuthType | undefined>(['url_auth', 'type']) ?? 'a';
  const pathsText = Form.useWatch<string | undefined>(['url_auth', 'pathsText']);
  const extensions = Form.useWatch<string[] | undefined>(['url_auth', 'extensions']);
  const path = examplePath(pathsText, extensions);
  return (
    <Alert
      type="info"
      data-testid="url-auth-example"
      style={{ marginBottom: 24 }}
      title={t('sites.urlAuth.example', { path })}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 4 }}>
            <Typography.Text code data-testid="url-auth-example-url">
              {signedUrlExample(type, domain, path)}
            </Typography.Text>
          </Typography.Paragraph>
          <Typography.Text type="secondary">
            {t('sites.urlAuth.exampleHelp')} <Typography.Text code>{SIGNED_STRING[type]}</Typography.Text>
          </Typography.Text>
        </>
      }
    />
  );
};
