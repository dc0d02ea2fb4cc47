import PlusOutlined from '@ant-design/icons/PlusOutlined';
import { REDIRECT_MAX_RULES, type RedirectHost, type RedirectTrailingSlash } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Radio from 'antd/es/radio';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { RedirectRuleCard } from './RedirectRuleCard.tsx';
import { RedirectsHelp } from './RedirectsHelp.tsx';
import { NEW_REDIRECT_RULE, redirectRules } from './redirectValues.ts';

const HOSTS: readonly RedirectHost[] = ['off', 'to_www', 'to_apex'];
const TRAILING_SLASHES: readonly RedirectTrailingSlash[] = ['off', 'add', 'remove'];

/** Redirects and rewrites of the site edit page: the ordered rules and two switches, saved with the site. */
export const RedirectsSection = () => {
  const { t } = useTranslation();
  const rules = redirectRules(t);
  return (
    <div data-testid="redirects-section">
      <Typography.Paragraph type="secondary">{t('sites.redirects.intro')}</Typography.Paragraph>
      <RedirectsHelp />
      <Form.List name={['redirects', 'rules']} rules={rules.rules}>
        {(fields, { add, remove, move }, { errors }) => (
          <>
            {fields.length === 0 && (
              <Typography.Paragraph type="secondary" data-testid="redirects-empty">
                {t('sites.redirects.empty')}
              </Typography.Paragraph>
            )}
            {fields.map((field) => (
              <RedirectRuleCard key={field.key} name={field.name} count={fields.length} move={move} remove={remove} />
            ))}
            <Form.ErrorList errors={errors} />
            <Button
              icon={<PlusOutlined />}
              disabled={fields.length >= REDIRECT_MAX_RULES}
              onClick={() => add({ ...NEW_REDIRECT_RULE })}
              data-testid="redirects-add"
              style={{ marginBottom: 24 }}
            >
              {t('sites.redirects.add')}
            </Button>
          </>
        )}
      </Form.List>
      <Form.Item
        name={['redirects', 'host']}
        label={t('sites.redirects.host')}
        extra={t('sites.redirects.hostHelp')}
        rules={rules.host}
        dependencies={['domainsText']}
      >
        <Radio.Group
          optionType="button"
          options={HOSTS.map((value) => ({ value, label: t(`sites.redirects.hosts.${value}`) }))}
        />
      </Form.Item>
      <Form.Item
        name={['redirects', 'trailing_slash']}
        label={t('sites.redirects.trailingSlash')}
        extra={t('sites.redirects.trailingSlashHelp')}
      >
        <Radio.Group
          optionType="button"
          options={TRAILING_SLASHES.map((value) => ({ value, label: t(`sites.redirects.trailingSlashes.${value}`) }))}
        />
      </Form.Item>
    </div>
  );
};
