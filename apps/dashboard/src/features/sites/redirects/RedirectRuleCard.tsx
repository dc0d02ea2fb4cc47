import ArrowDownOutlined from '@ant-design/icons/ArrowDownOutlined';
import ArrowUpOutlined from '@ant-design/icons/ArrowUpOutlined';
import DeleteOutlined from '@ant-design/icons/DeleteOutlined';
import { checkRedirectRegex, type RedirectAction, type RedirectMatch, type RedirectStatus } from '@rampart/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input/Input';
import Radio from 'antd/es/radio';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import { redirectRules } from './redirectValues.ts';

const MATCHES: readonly RedirectMatch[] = ['prefix', 'exact', 'regex'];
const ACTIONS: readonly RedirectAction[] = ['redirect', 'rewrite'];
const STATUSES: readonly RedirectStatus[] = [301, 302, 307, 308];
const MONOSPACE = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };
const PLACEHOLDERS: Record<RedirectMatch, string> = { prefix: '/old/', exact: '/about.html', regex: '^/p/(\\d+)$' };
const row = { display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'flex-start' } as const;

/** The captures a valid expression offers its target, for the target's hint. */
const regexGroups = (value: string | undefined): number | undefined => {
  try {
    return checkRedirectRegex(value?.trim() ?? '').groups;
  } catch {
    return undefined;
  }
};

interface RedirectRuleCardProps {
  /** The rule's place in the form list. */
  name: number;
  count: number;
  move: (from: number, to: number) => void;
  remove: (index: number) => void;
}

/** One rule of the ordered list: what it matches, what it does, and where to. */
export const RedirectRuleCard = ({ name, count, move, remove }: RedirectRuleCardProps) => {
  const { t } = useTranslation();
  const rules = redirectRules(t);
  const path = (field: string) => ['redirects', 'rules', name, field];
  const match = Form.useWatch<RedirectMatch | undefined>(path('match')) ?? 'prefix';
  const action = Form.useWatch<RedirectAction | undefined>(path('action')) ?? 'redirect';
  const value = Form.useWatch<string | undefined>(path('value'));
  const groups = match === 'regex' ? regexGroups(value) : undefined;
  const number = name + 1;
  const targetHelp =
    match === 'prefix'
      ? t('sites.redirects.captures.prefix')
      : match === 'exact'
        ? t('sites.redirects.captures.exact')
        : groups === undefined
          ? t('sites.redirects.captures.regex')
          : groups === 0
            ? t('sites.redirects.captures.none')
            : groups === 1
              ? t('sites.redirects.captures.one')
              : t('sites.redirects.captures.groups', { last: `$${groups}` });
  return (
    <div
      data-testid={`redirect-rule-${name}`}
      style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: '12px 16px 0', marginBottom: 12 }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 4, marginBottom: 8 }}>
        <strong style={{ flex: 1 }}>{t('sites.redirects.ruleOf', { number })}</strong>
        <Button
          type="text"
          icon={<ArrowUpOutlined />}
          aria-label={t('sites.redirects.upOf', { number })}
          disabled={name === 0}
          onClick={() => move(name, name - 1)}
        />
        <Button
          type="text"
          icon={<ArrowDownOutlined />}
          aria-label={t('sites.redirects.downOf', { number })}
          disabled={name === count - 1}
          onClick={() => move(name, name + 1)}
        />
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('sites.redirects.removeOf', { number })}
          onClick={() => remove(name)}
        />
      </div>
      <div style={row}>
        <Form.Item name={[name, 'match']} label={t('sites.redirects.match')}>
          <Radio.Group
            optionType="button"
            options={MATCHES.map((option) => ({ value: option, label: t(`sites.redirects.matches.${option}`) }))}
          />
        </Form.Item>
        <Form.Item
          name={[name, 'value']}
          label={t(match === 'regex' ? 'sites.redirects.expression' : 'sites.redirects.path')}
          rules={rules.value(name)}
          dependencies={[path('match')]}
          style={{ flex: '1 1 260px' }}
        >
          <Input placeholder={PLACEHOLDERS[match]} spellCheck={false} style={MONOSPACE} />
        </Form.Item>
      </div>
      <div style={row}>
        <Form.Item name={[name, 'action']} label={t('sites.redirects.action')}>
          <Radio.Group
            optionType="button"
            options={ACTIONS.map((option) => ({ value: option, label: t(`sites.redirects.actions.${option}`) }))}
          />
        </Form.Item>
        {action === 'redirect' && (
          <Form.Item name={[name, 'status']} label={t('sites.redirects.status')}>
            <Radio.Group
              optionType="button"
              options={STATUSES.map((status) => ({
                value: status,
                label: String(status),
                title: t(`sites.redirects.statuses.${status}`),
              }))}
            />
          </Form.Item>
        )}
        <Form.Item name={[name, 'keep_query']} label={t('sites.redirects.keepQuery')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
      <Form.Item
        name={[name, 'target']}
        label={t(action === 'rewrite' ? 'sites.redirects.rewriteTo' : 'sites.redirects.redirectTo')}
        extra={targetHelp}
        rules={rules.target(name)}
        dependencies={[path('match'), path('value'), path('action')]}
      >
        <Input
          placeholder={action === 'rewrite' ? '/new/$1' : 'https://www.example.com/new/$1'}
          spellCheck={false}
          style={MONOSPACE}
        />
      </Form.Item>
    </div>
  );
};
