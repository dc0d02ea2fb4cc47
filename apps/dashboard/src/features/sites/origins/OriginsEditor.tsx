import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import InputNumber from 'antd/es/input-number';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { edgeRules } from '../edgeRules.ts';
import { NEW_ORIGIN } from '../sitePayload.ts';

/** The origins table editor of sites and streams: address, port, weight and backup per row. */
export const OriginsEditor = ({ defaultPort = 80 }: { defaultPort?: number }) => {
  const { t } = useTranslation();
  const rules = edgeRules(t);
  return (
    <Form.List
      name="origins"
      rules={[
        {
          validator: async (_rule, origins: unknown[] | undefined) => {
            if (!origins || origins.length === 0) throw new Error(t('sites.rule.originsRequired'));
            if (origins.length > 64) throw new Error(t('sites.rule.originsMax'));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <div data-testid="origins-editor">
          {fields.map((field, index) => (
            <div key={field.key} style={{ display: 'flex', gap: 8, alignItems: 'flex-start', flexWrap: 'wrap' }}>
              <Form.Item
                name={[field.name, 'address']}
                label={t('sites.origin.address')}
                rules={rules.originAddress}
                style={{ flex: '1 1 200px' }}
              >
                <Input aria-label={t('sites.origin.addressOf', { index: index + 1 })} />
              </Form.Item>
              <Form.Item name={[field.name, 'port']} label={t('sites.origin.port')} rules={rules.port}>
                <InputNumber
                  aria-label={t('sites.origin.portOf', { index: index + 1 })}
                  precision={0}
                  style={{ width: 100 }}
                />
              </Form.Item>
              <Form.Item name={[field.name, 'weight']} label={t('sites.origin.weight')} rules={rules.weight}>
                <InputNumber
                  aria-label={t('sites.origin.weightOf', { index: index + 1 })}
                  precision={0}
                  style={{ width: 80 }}
                />
              </Form.Item>
              <Form.Item name={[field.name, 'backup']} valuePropName="checked" label={t('sites.origin.backup')}>
                <Switch size="small" aria-label={t('sites.origin.backupOf', { index: index + 1 })} />
              </Form.Item>
              {/* An empty label keeps the button in line with the inputs under their labels. */}
              <Form.Item label=" " colon={false}>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('sites.origin.removeOf', { index: index + 1 })}
                  onClick={() => remove(field.name)}
                />
              </Form.Item>
            </div>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => add({ ...NEW_ORIGIN, port: defaultPort })}>
            {t('sites.origin.add')}
          </Button>
          <Form.ErrorList errors={errors} />
        </div>
      )}
    </Form.List>
  );
};
