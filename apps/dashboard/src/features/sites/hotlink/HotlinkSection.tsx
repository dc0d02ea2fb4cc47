import { DEFAULT_SITE_HOTLINK, type HotlinkAction } from '@rampart/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import TextArea from 'antd/es/input/TextArea';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { hotlinkRules, normalizeExtensions } from './hotlinkValues.ts';

const ACTIONS: readonly HotlinkAction[] = ['forbid', 'redirect'];

/** Hotlink protection of the site edit page: which pages may embed the site's files, saved with the site. */
export const HotlinkSection = () => {
  const { t } = useTranslation();
  const rules = hotlinkRules(t);
  const action = Form.useWatch<HotlinkAction | undefined>(['hotlink', 'action']);
  return (
    <div data-testid="hotlink-section">
      <Typography.Paragraph type="secondary">{t('sites.hotlink.intro')}</Typography.Paragraph>
      <Form.Item name={['hotlink', 'enabled']} label={t('sites.hotlink.enabled')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name={['hotlink', 'allowText']}
        label={t('sites.hotlink.allow')}
        extra={t('sites.hotlink.allowHelp')}
        rules={rules.allow}
      >
        <TextArea rows={4} />
      </Form.Item>
      <Form.Item
        name={['hotlink', 'denyText']}
        label={t('sites.hotlink.deny')}
        extra={t('sites.hotlink.denyHelp')}
        rules={rules.deny}
        dependencies={[['hotlink', 'allowText']]}
      >
        <TextArea rows={4} />
      </Form.Item>
      <Form.Item
        name={['hotlink', 'allow_empty']}
        label={t('sites.hotlink.allowEmpty')}
        extra={t('sites.hotlink.allowEmptyHelp')}
        valuePropName="checked"
      >
        <Switch />
      </Form.Item>
      <Form.Item
        name={['hotlink', 'extensions']}
        label={t('sites.hotlink.extensions')}
        extra={t('sites.hotlink.extensionsHelp', { list: DEFAULT_SITE_HOTLINK.extensions.join(' ') })}
        rules={rules.extensions}
        normalize={normalizeExtensions}
      >
        <Select mode="tags" tokenSeparators={[',', ' ']} suffixIcon={null} />
      </Form.Item>
      <Form.Item name={['hotlink', 'action']} label={t('sites.hotlink.action')}>
        <Radio.Group
          options={ACTIONS.map((value) => ({ value, label: t(`sites.hotlink.actions.${value}`) }))}
          optionType="button"
        />
      </Form.Item>
      {action === 'redirect' && (
        <Form.Item
          name={['hotlink', 'redirect_url']}
          label={t('sites.hotlink.redirectUrl')}
          extra={t('sites.hotlink.redirectUrlHelp')}
          rules={rules.redirectUrl}
        >
          <Input placeholder="https://www.example.com/hotlink.png" />
        </Form.Item>
      )}
    </div>
  );
};
