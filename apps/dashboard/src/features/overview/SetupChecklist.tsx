import CheckCircleFilled from '@ant-design/icons/CheckCircleFilled';
import ClockCircleOutlined from '@ant-design/icons/ClockCircleOutlined';
import RightOutlined from '@ant-design/icons/RightOutlined';
import { useQuery } from '@tanstack/react-query';
import Progress from 'antd/es/progress';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { PANEL } from './panel.ts';
import { type AdminSetup, checklistItems } from './setupChecklist.ts';

/** The admin's first-run checklist: what customers need before their sites can work; gone once all is done. */
export const SetupChecklist = () => {
  const { t } = useTranslation();
  const http = useHttp();
  const setup = useQuery({
    queryKey: ['admin', 'setup'],
    retry: false,
    // A master without the checklist, or a refusal, leaves the home page as it was.
    queryFn: ({ signal }) => http.get<AdminSetup>('/v1/admin/setup', { signal, silent: true }),
  });
  const items = checklistItems(setup.data);
  if (!items) return null;
  const done = items.filter((item) => item.done).length;
  return (
    <div style={PANEL} data-testid="setup-checklist">
      <div style={{ display: 'flex', alignItems: 'center', gap: 16, flexWrap: 'wrap' }}>
        <h3 style={{ margin: 0, fontSize: 16 }}>{t('overview.setup.title')}</h3>
        <span style={{ color: 'rgba(0,0,0,0.45)' }}>{t('overview.setup.progress', { done, total: items.length })}</span>
        <Progress
          percent={Math.round((done / items.length) * 100)}
          showInfo={false}
          size="small"
          style={{ flex: '1 1 120px', maxWidth: 240, margin: 0 }}
        />
      </div>
      <p style={{ color: 'rgba(0,0,0,0.45)', margin: '4px 0 8px' }}>{t('overview.setup.intro')}</p>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {items.map((item) => (
          <li
            key={item.key}
            data-testid={`setup-item:${item.key}`}
            data-done={item.done}
            style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '6px 0' }}
          >
            {item.done ? (
              <CheckCircleFilled style={{ color: '#52c41a' }} aria-label={t('overview.setup.done')} />
            ) : (
              <ClockCircleOutlined style={{ color: '#faad14' }} aria-label={t('overview.setup.todo')} />
            )}
            <Link to={item.path} style={item.done ? { color: 'rgba(0,0,0,0.45)' } : undefined}>
              {t(`overview.setup.item.${item.key}`, { defaultValue: item.key })}
            </Link>
            {!item.done && <RightOutlined style={{ fontSize: 10, color: 'rgba(0,0,0,0.45)' }} />}
          </li>
        ))}
      </ul>
    </div>
  );
};
