import { type AgentMastersSettings, MAX_AGENT_MASTERS } from '@rampart/contracts';
import Form from 'antd/es/form';
import Select from 'antd/es/select';
import { useLocales } from '../../shared/i18n/useLocales.ts';
import { MASTER_ADDRESS } from '../sys-op/rules.ts';
import { ConfigCard } from './ConfigCard.tsx';
import { EDGE_SETTINGS_LOCALES } from './locales/bundle.ts';

const FIELDS = ['masters'] as const;
const same = (value: AgentMastersSettings) => value;

/** The masters every agent uses and fails over between (configs global-0-agent-masters). */
export const MastersCard = () => {
  const { t } = useLocales(EDGE_SETTINGS_LOCALES);
  const f = (key: string) => t(`edgeSettings.masters.${key}`);
  return (
    <ConfigCard name="masters" title={f('title')} help={f('help')} toForm={same} fromForm={same} fields={FIELDS}>
      <Form.Item
        name="masters"
        label={f('list')}
        extra={f('listHelp')}
        rules={[
          {
            validator: async (_rule, value: string[] | undefined) => {
              const masters = value ?? [];
              const bad = masters.find((master) => !MASTER_ADDRESS.test(master));
              if (bad !== undefined) throw new Error(t('edgeSettings.masters.invalid', { master: bad }));
              const twice = masters.find((master, at) =>
                masters.slice(0, at).some((before) => before.toLowerCase() === master.toLowerCase()),
              );
              if (twice !== undefined) throw new Error(t('edgeSettings.masters.twice', { master: twice }));
              if (masters.length > MAX_AGENT_MASTERS) {
                throw new Error(t('edgeSettings.masters.tooMany', { max: MAX_AGENT_MASTERS }));
              }
            },
          },
        ]}
      >
        <Select
          mode="tags"
          aria-label={f('list')}
          tokenSeparators={[' ', ',']}
          placeholder="https://cdn1.example.com"
          style={{ maxWidth: 720 }}
        />
      </Form.Item>
    </ConfigCard>
  );
};
