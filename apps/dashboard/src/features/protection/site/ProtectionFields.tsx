import Form from 'antd/es/form';
import TextArea from 'antd/es/input/TextArea';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { checkWhitelist } from '../model/siteProtection.ts';
import { checkRule } from '../shared/formRules.ts';
import { ObjectSelect } from '../shared/ObjectSelect.tsx';
import { usableOwners } from '../shared/owners.ts';
import { WafFields } from '../shared/WafFields.tsx';
import { AclEditor } from './AclEditor.tsx';

/** The fields of the protection section, in the order a request meets them. */
export const ProtectionFields = ({ owner, siteId }: { owner: number; siteId: number }) => {
  const { t } = useTranslation();
  const owners = usableOwners(owner);
  return (
    <>
      <h4>{t('protection.site.acl')}</h4>
      <p style={{ color: 'rgba(0,0,0,0.45)' }}>{t('protection.site.aclHelp')}</p>
      <AclEditor siteId={siteId} />
      <h4 style={{ marginTop: 24 }}>{t('protection.site.whitelist')}</h4>
      <Form.Item
        name="whitelistText"
        extra={t('protection.site.whitelistHelp')}
        rules={[checkRule(t, (value) => checkWhitelist(typeof value === 'string' ? value : undefined))]}
      >
        <TextArea rows={4} aria-label={t('protection.site.whitelist')} placeholder={'203.0.113.7\n198.51.100.0/24'} />
      </Form.Item>
      <h4>{t('protection.site.rules')}</h4>
      <Form.Item name="rule_group_id" label={t('protection.site.ruleGroup')}>
        <ObjectSelect kind="groups" allowNone owners={owners} aria-label={t('protection.site.ruleGroup')} />
      </Form.Item>
      <Form.Item
        name="attack_rule_group_id"
        label={t('protection.site.attackGroup')}
        extra={t('protection.site.attackGroupHelp')}
      >
        <ObjectSelect kind="groups" allowNone owners={owners} aria-label={t('protection.site.attackGroup')} />
      </Form.Item>
      <Form.Item name="under_attack" label={t('protection.site.underAttack')} valuePropName="checked">
        <Switch aria-label={t('protection.site.underAttack')} />
      </Form.Item>
      <h4>{t('protection.site.waf')}</h4>
      <WafFields prefix={['waf']} />
    </>
  );
};
