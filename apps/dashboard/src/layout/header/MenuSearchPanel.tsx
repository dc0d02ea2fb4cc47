import type { MenuItem } from '@rampart/contracts';
import Input from 'antd/es/input/Input';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { searchEntries, searchMenu } from '../menu/menuModel.ts';

/** The search input and the pages that match it; Enter opens the first one. */
export const MenuSearchPanel = ({ sider, onDone }: { sider: readonly MenuItem[]; onDone: () => void }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const entries = useMemo(() => searchEntries(sider), [sider]);
  const results = searchMenu(entries, query, t);
  const go = (path: string) => {
    navigate(path);
    setQuery('');
    onDone();
  };
  return (
    <div className="rp-search-panel" data-testid="menu-search">
      <Input
        autoFocus
        allowClear
        type="search"
        aria-label={t('layout.header.search')}
        placeholder={t('layout.header.searchPlaceholder')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onPressEnter={() => results[0] && go(results[0].path)}
      />
      {query.trim() !== '' && (
        <ul className="rp-search-results">
          {results.length === 0 && <li className="rp-search-empty">{t('layout.header.noResults')}</li>}
          {results.map((entry) => (
            <li key={entry.path}>
              <button type="button" onClick={() => go(entry.path)}>
                {entry.group && <span className="rp-search-group">{t(entry.group)} / </span>}
                {t(entry.title)}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
