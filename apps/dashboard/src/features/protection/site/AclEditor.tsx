import PlusOutlined from '@ant-design/icons/PlusOutlined';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { type AclAction, NEW_ACL_ROW } from '../model/acl.ts';
import { AclPreview } from '../preview/LazyPreviews.tsx';
import { ConditionFields } from '../shared/ConditionFields.tsx';
import { ListButtons } from '../shared/ListButtons.tsx';

const ACTIONS: readonly AclAction[] = ['allow', 'deny'];

/**
 * The site's ordered ACL: the first entry whose condition holds decides; allow skips every later check.
 * With the site known, the draft can be previewed on the site's recent traffic before it is saved.
 */
export const AclEditor = ({ siteId }: { siteId?: number }) => {
  const { t } = useTranslation();
  return (
    <Form.List name="acl">
      {(fields, { add, remove, move }) => (
        <div data-testid="acl-editor">
          {fields.map((field, index) => {
            const label = t('protection.acl.label', { index: index + 1 });
            return (
              <div
                key={field.key}
                style={{
                  display: 'flex',
                  gap: 8,
                  alignItems: 'flex-start',
                  borderBottom: '1px solid #f0f0f0',
                  paddingTop: 8,
                }}
              >
                <span style={{ width: 24, paddingTop: 5 }}>{index + 1}.</span>
                <Form.Item name={[field.name, 'action']} style={{ width: 100, marginBottom: 8 }}>
                  <Select<AclAction>
                    aria-label={t('protection.acl.actionOf', { label })}
                    options={ACTIONS.map((value) => ({ value, label: t(`protection.acl.${value}`) }))}
                  />
                </Form.Item>
                <div style={{ flex: 1 }}>
                  <ConditionFields
                    name={[field.name, 'condition']}
                    path={['acl', field.name, 'condition']}
                    label={label}
                  />
                </div>
                <ListButtons index={index} count={fields.length} label={label} move={move} remove={remove} />
              </div>
            );
          })}
          <Button icon={<PlusOutlined />} style={{ marginTop: 8 }} onClick={() => add(structuredClone(NEW_ACL_ROW))}>
            {t('protection.acl.add')}
          </Button>
          {siteId !== undefined && <AclPreview siteId={siteId} />}
        </div>
      )}
    </Form.List>
  );
};
