import Tabs from 'antd/es/tabs';
import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { PROTECTION_LOCALES } from '../locales/bundle.ts';
import { FilterDrawer } from './FilterDrawer.tsx';
import { GroupDrawer } from './GroupDrawer.tsx';
import { MatchDrawer } from './MatchDrawer.tsx';
import { ObjectTab } from './ObjectTab.tsx';
import { filterColumns, groupColumns, matchColumns } from './objectColumns.tsx';

/** Spec §2 /site/rule: rule groups, and the matches and filters their lines are made of. */
export const Component = () => {
  const { t } = useLocales(PROTECTION_LOCALES);
  const items = [
    {
      key: 'groups',
      label: t('protection.groups.tab'),
      children: (
        <ObjectTab
          kind="groups"
          columns={groupColumns(t)}
          drawer={(row, onClose) => <GroupDrawer row={row} onClose={onClose} />}
        />
      ),
    },
    {
      key: 'matches',
      label: t('protection.matches.tab'),
      children: (
        <ObjectTab
          kind="matches"
          columns={matchColumns(t)}
          drawer={(row, onClose) => <MatchDrawer row={row} onClose={onClose} />}
        />
      ),
    },
    {
      key: 'filters',
      label: t('protection.filters.tab'),
      children: (
        <ObjectTab
          kind="filters"
          columns={filterColumns(t)}
          drawer={(row, onClose) => <FilterDrawer row={row} onClose={onClose} />}
        />
      ),
    },
  ];
  return (
    <section data-testid="rule-page" style={{ background: '#fff', padding: 24, borderRadius: 8 }}>
      <Tabs items={items} />
    </section>
  );
};
