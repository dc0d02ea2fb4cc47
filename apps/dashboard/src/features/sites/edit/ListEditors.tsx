import ArrowDownOutlined from '@ant-design/icons/ArrowDownOutlined';
import ArrowUpOutlined from '@ant-design/icons/ArrowUpOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import type { CacheRule } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { edgeRules } from '../edgeRules.ts';

const NEW_RULE: CacheRule = { match: 'prefix', value: '/', ttl: 3600, ignore_query: false, honor_origin: false };
const row = { display: 'flex', gap: 8, alignItems: 'flex-start', flexWrap: 'wrap' } as const;

/** The ordered cache rules: the first rule that matches a request decides. */
export const CacheRulesEditor = () => {
  const { t } = useTranslation();
  const rules = edgeRules(t);
  const form = Form.useFormInstance();
  return (
    <Form.List name="cache_rules">
      {(fields, { add, remove, move }) => (
        <div data-testid="cache-rules-editor">
          {fields.map((field, index) => (
            <div key={field.key} style={row}>
              <Form.Item name={[field.name, 'match']}>
                <Select
                  aria-label={t('sites.cache.match')}
                  style={{ width: 130 }}
                  options={[
                    { value: 'prefix', label: t('sites.cache.prefix') },
                    { value: 'extension', label: t('sites.cache.extension') },
                  ]}
                />
              </Form.Item>
              <Form.Item
                noStyle
                shouldUpdate={(prev, next) => prev.cache_rules?.[index]?.match !== next.cache_rules?.[index]?.match}
              >
                {() => (
                  <Form.Item
                    name={[field.name, 'value']}
                    style={{ flex: '1 1 160px' }}
                    rules={
                      form.getFieldValue(['cache_rules', field.name, 'match']) === 'extension'
                        ? rules.extension
                        : rules.pathPrefix
                    }
                  >
                    <Input aria-label={t('sites.cache.value')} placeholder={t('sites.cache.value')} />
                  </Form.Item>
                )}
              </Form.Item>
              <Form.Item name={[field.name, 'ttl']} rules={rules.ttl}>
                <InputNumber aria-label={t('sites.cache.ttl')} placeholder={t('sites.cache.ttl')} precision={0} />
              </Form.Item>
              <Form.Item
                name={[field.name, 'ignore_query']}
                valuePropName="checked"
                label={t('sites.cache.ignoreQuery')}
              >
                <Switch size="small" />
              </Form.Item>
              <Form.Item
                name={[field.name, 'honor_origin']}
                valuePropName="checked"
                label={t('sites.cache.honorOrigin')}
              >
                <Switch size="small" />
              </Form.Item>
              <Button
                type="text"
                icon={<ArrowUpOutlined />}
                aria-label={t('sites.cache.up')}
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
              />
              <Button
                type="text"
                icon={<ArrowDownOutlined />}
                aria-label={t('sites.cache.down')}
                disabled={index === fields.length - 1}
                onClick={() => move(index, index + 1)}
              />
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('sites.cache.remove')}
                onClick={() => remove(field.name)}
              />
            </div>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => add({ ...NEW_RULE })}>
            {t('sites.cache.add')}
          </Button>
        </div>
      )}
    </Form.List>
  );
};

/** Name/value pairs added to requests to the origin or to responses to the visitor. */
export const HeadersEditor = ({ name }: { name: 'request_headers' | 'response_headers' }) => {
  const { t } = useTranslation();
  const rules = edgeRules(t);
  return (
    <Form.List name={name}>
      {(fields, { add, remove }) => (
        <div data-testid={`${name}-editor`}>
          {fields.map((field) => (
            <div key={field.key} style={row}>
              <Form.Item name={[field.name, 'name']} rules={rules.headerName} style={{ flex: '1 1 160px' }}>
                <Input aria-label={t('sites.header.name')} placeholder={t('sites.header.name')} />
              </Form.Item>
              <Form.Item name={[field.name, 'value']} rules={rules.headerValue} style={{ flex: '2 1 240px' }}>
                <Input aria-label={t('sites.header.value')} placeholder={t('sites.header.value')} />
              </Form.Item>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('sites.header.remove')}
                onClick={() => remove(field.name)}
              />
            </div>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => add({ name: '', value: '' })}>
            {t('sites.header.add')}
          </Button>
        </div>
      )}
    </Form.List>
  );
};
