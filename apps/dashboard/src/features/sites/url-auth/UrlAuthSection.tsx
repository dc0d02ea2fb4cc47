import { URL_AUTH_MAX_TTL, type UrlAuthType } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Password from 'antd/es/input/Password';
import TextArea from 'antd/es/input/TextArea';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { asciiDomain, domainLines } from '../edgeRules.ts';
import { normalizeExtensions } from '../hotlink/hotlinkValues.ts';
import { SignedUrlExample } from './SignedUrlExample.tsx';
import { durationParts, generateUrlAuthKey, SIGNED_STRING, urlAuthRules } from './urlAuthValues.ts';

const TYPES: readonly UrlAuthType[] = ['a', 'b', 'c'];
/** Each scheme's URL shape, as in the contract. */
const URL_SHAPES: Record<UrlAuthType, string> = {
  a: '/path?auth_key=<ts>-<rand>-<uid>-<md5>',
  b: '/<YYYYMMDDHHMM>/<md5>/path',
  c: '/<md5>/<ts in hex>/path',
};

/** The fields a key's rules read: the switch and the other key. */
const KEY_DEPENDENCIES = {
  key: [
    ['url_auth', 'enabled'],
    ['url_auth', 'backup_key'],
  ],
  backup_key: [['url_auth', 'key']],
};

/** A key box with its reveal toggle and a button that fills in a random key. */
const KeyField = ({ name, rules }: { name: 'key' | 'backup_key'; rules: ReturnType<typeof urlAuthRules>['key'] }) => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const path = ['url_auth', name];
  const label = name === 'key' ? 'sites.urlAuth.key' : 'sites.urlAuth.backupKey';
  return (
    <Form.Item label={t(label)} htmlFor={`url_auth_${name}`} extra={t(`${label}Help`)}>
      <Space.Compact style={{ width: '100%', maxWidth: 560 }}>
        <Form.Item name={path} rules={rules} noStyle dependencies={KEY_DEPENDENCIES[name]}>
          <Password autoComplete="off" spellCheck={false} />
        </Form.Item>
        <Button
          onClick={() => form.setFields([{ name: path, value: generateUrlAuthKey(), errors: [] }])}
          data-testid={`url-auth-generate-${name}`}
        >
          {t('sites.urlAuth.generate')}
        </Button>
      </Space.Compact>
    </Form.Item>
  );
};

/** Signed URLs of the site edit page: which requests need a signature and the keys that sign them, saved with the site. */
export const UrlAuthSection = () => {
  const { t } = useTranslation();
  const rules = urlAuthRules(t);
  const enabled = Form.useWatch<boolean | undefined>(['url_auth', 'enabled']);
  const ttl = Form.useWatch<number | null | undefined>(['url_auth', 'ttl']);
  const domainsText = Form.useWatch<string | undefined>('domainsText');
  const first = asciiDomain(domainLines(domainsText)[0] ?? 'example.com').replace(/^\*\./, 'www.');
  const duration = typeof ttl === 'number' && Number.isInteger(ttl) && ttl > 0 ? durationParts(ttl) : [];
  return (
    <div data-testid="url-auth-section">
      <Typography.Paragraph type="secondary">{t('sites.urlAuth.intro')}</Typography.Paragraph>
      <Form.Item name={['url_auth', 'enabled']} label={t('sites.urlAuth.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name={['url_auth', 'type']} label={t('sites.urlAuth.type')}>
        <Radio.Group>
          <Space orientation="vertical">
            {TYPES.map((type) => (
              <Radio key={type} value={type}>
                {t(`sites.urlAuth.types.${type}`)} <Typography.Text code>{URL_SHAPES[type]}</Typography.Text>{' '}
                <Typography.Text type="secondary">
                  {t('sites.urlAuth.signs')} <Typography.Text code>{SIGNED_STRING[type]}</Typography.Text>
                </Typography.Text>
              </Radio>
            ))}
          </Space>
        </Radio.Group>
      </Form.Item>
      <KeyField name="key" rules={rules.key} />
      <KeyField name="backup_key" rules={rules.backupKey} />
      <Form.Item
        name={['url_auth', 'ttl']}
        label={t('sites.urlAuth.ttl')}
        extra={
          duration.length > 0
            ? t('sites.urlAuth.ttlHint', {
                duration: duration.map(({ unit, count }) => t(`sites.urlAuth.duration.${unit}`, { count })).join(' '),
              })
            : t('sites.urlAuth.ttlHelp', { max: URL_AUTH_MAX_TTL })
        }
        rules={rules.ttl}
      >
        <InputNumber
          min={1}
          max={URL_AUTH_MAX_TTL}
          precision={0}
          suffix={t('sites.urlAuth.seconds')}
          style={{ width: 200 }}
        />
      </Form.Item>
      <Form.Item
        name={['url_auth', 'pathsText']}
        label={t('sites.urlAuth.paths')}
        extra={t('sites.urlAuth.pathsHelp')}
        rules={rules.paths}
      >
        <TextArea rows={3} placeholder="/private/" />
      </Form.Item>
      <Form.Item
        name={['url_auth', 'extensions']}
        label={t('sites.urlAuth.extensions')}
        extra={t('sites.urlAuth.scopeHelp')}
        rules={rules.extensions}
        normalize={normalizeExtensions}
      >
        <Select mode="tags" tokenSeparators={[',', ' ']} suffixIcon={null} />
      </Form.Item>
      {enabled === true && <SignedUrlExample domain={first} />}
    </div>
  );
};
