import { ACCESS_LOG_COLUMNS } from '@rampart/contracts';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../protection/shared/time.ts';
import type { AccessLogEntry } from '../api.ts';
import { countryName } from '../model/countries.ts';

/** Every field of one line, as text: user agents, URLs and referers come from strangers. */
export const AccessLogDrawer = ({ entry, onClose }: { entry: AccessLogEntry | undefined; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const shown = (column: keyof AccessLogEntry) => {
    if (!entry) return '';
    const value = entry[column];
    if (column === 'time') return `${formatTime(entry.time, i18n.language)} (${entry.time})`;
    if (column === 'country' && entry.country !== '')
      return `${countryName(entry.country, i18n.language)} (${entry.country})`;
    return value === null ? '—' : String(value);
  };
  return (
    <Drawer open={entry !== undefined} onClose={onClose} size={560} title={t('monitor.accessLog.drawerTitle')}>
      {entry && (
        <Descriptions
          column={1}
          size="small"
          bordered
          data-testid="access-log-line"
          items={ACCESS_LOG_COLUMNS.map((column) => ({
            key: column,
            label: t(`monitor.field.${column}`),
            children: <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{shown(column)}</span>,
          }))}
        />
      )}
    </Drawer>
  );
};
