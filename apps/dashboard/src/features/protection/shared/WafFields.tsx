import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import type { FieldPath } from '../../sites/edgeRules.ts';
import { checkExclusions, checkStaticExts, PARANOIA, staticExtList, WAF_MODES } from '../model/waf.ts';
import { checkRule } from './formRules.ts';

const PARANOIA_LEVELS = Array.from({ length: PARANOIA.max - PARANOIA.min + 1 }, (_, index) => PARANOIA.min + index);

/**
 * ModSecurity with the OWASP CRS: off, detect only or block; paranoia level; rule ids to skip; whether
 * static files are inspected too, and which extensions count as static files.
 */
export const WafFields = ({ prefix = [] }: { prefix?: FieldPath }) => {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name={[...prefix, 'mode']} label={t('protection.waf.mode')} extra={t('protection.waf.modeHelp')}>
        <Select
          aria-label={t('protection.waf.mode')}
          style={{ width: 220 }}
          options={WAF_MODES.map((value) => ({ value, label: t(`protection.waf.modes.${value}`) }))}
        />
      </Form.Item>
      <Form.Item
        name={[...prefix, 'paranoia']}
        label={t('protection.waf.paranoia')}
        extra={t('protection.waf.paranoiaHelp')}
      >
        <Select
          aria-label={t('protection.waf.paranoia')}
          style={{ width: 220 }}
          options={PARANOIA_LEVELS.map((value) => ({ value, label: String(value) }))}
        />
      </Form.Item>
      <Form.Item
        name={[...prefix, 'exclusionsText']}
        label={t('protection.waf.exclusions')}
        extra={t('protection.waf.exclusionsHelp')}
        rules={[checkRule(t, (value) => checkExclusions(typeof value === 'string' ? value : undefined))]}
      >
        <Input aria-label={t('protection.waf.exclusions')} placeholder="920350 942100" />
      </Form.Item>
      <Form.Item
        name={[...prefix, 'inspectStatic']}
        label={t('protection.waf.inspectStatic')}
        extra={t('protection.waf.inspectStaticHelp')}
        valuePropName="checked"
      >
        <Switch aria-label={t('protection.waf.inspectStatic')} />
      </Form.Item>
      <Form.Item
        name={[...prefix, 'staticExts']}
        label={t('protection.waf.staticExts')}
        extra={t('protection.waf.staticExtsHelp')}
        normalize={(value: unknown) => staticExtList(Array.isArray(value) ? value : [])}
        rules={[checkRule(t, checkStaticExts)]}
      >
        <Select
          mode="tags"
          open={false}
          tokenSeparators={[',', ' ']}
          aria-label={t('protection.waf.staticExts')}
          placeholder="png css js"
        />
      </Form.Item>
    </>
  );
};
