import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';

/** Worked examples: a rule, then a request and what it becomes. */
const EXAMPLES = [
  {
    match: 'prefix',
    value: '/old/',
    action: 'redirect',
    status: '301',
    target: '/new/$1',
    from: '/old/a/b?x=1',
    to: '/new/a/b?x=1',
  },
  {
    match: 'exact',
    value: '/about.html',
    action: 'redirect',
    status: '302',
    target: 'https://www.example.com/about',
    from: '/about.html',
    to: 'https://www.example.com/about',
  },
  {
    match: 'regex',
    value: '^/post/(\\d+)\\.html$',
    action: 'rewrite',
    status: '',
    target: '/posts/$1',
    from: '/post/42.html',
    to: '/posts/42',
  },
] as const;

const Code = ({ children }: { children: string }) => <Typography.Text code>{children}</Typography.Text>;

/** How the rules are read, folded away until asked for. */
export const RedirectsHelp = () => {
  const { t } = useTranslation();
  return (
    <details data-testid="redirects-help" style={{ marginBottom: 16 }}>
      <summary style={{ cursor: 'pointer', color: '#1677ff' }}>{t('sites.redirects.help.title')}</summary>
      <ul style={{ paddingInlineStart: 20, marginTop: 8 }}>
        <li>{t('sites.redirects.help.order')}</li>
        <li>{t('sites.redirects.help.matches')}</li>
        <li>{t('sites.redirects.help.redirect')}</li>
        <li>{t('sites.redirects.help.rewrite')}</li>
        <li>{t('sites.redirects.help.regex')}</li>
      </ul>
      <Typography.Paragraph strong style={{ marginBottom: 4 }}>
        {t('sites.redirects.help.examples')}
      </Typography.Paragraph>
      <ul style={{ paddingInlineStart: 20 }}>
        {EXAMPLES.map((example) => (
          <li key={example.match}>
            {t(`sites.redirects.matches.${example.match}`)} <Code>{example.value}</Code>
            {' → '}
            {t(`sites.redirects.actions.${example.action}`)} {example.status} <Code>{example.target}</Code>
            {': '}
            <Code>{example.from}</Code>
            {' → '}
            <Code>{example.to}</Code>
          </li>
        ))}
      </ul>
    </details>
  );
};
