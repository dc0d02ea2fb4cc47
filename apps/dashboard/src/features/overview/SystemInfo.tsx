import Descriptions from 'antd/es/descriptions';
import { useTranslation } from 'react-i18next';
import { useSiteConfig, useSysInfo } from '../../shared/system/systemInfo.ts';
import { safeExternalUrl } from '../../shared/util/safeUrl.ts';
import { PANEL } from './panel.ts';

/** The system information: site name (GET /v1/site-sys-config) and footer (GET /v1/common/sysinfo). */
export const SystemInfo = () => {
  const { t } = useTranslation();
  const site = useSiteConfig();
  const { data: sysinfo } = useSysInfo();
  const link = safeExternalUrl(sysinfo?.footer_link);
  return (
    <div style={PANEL}>
      <Descriptions
        data-testid="overview-system"
        title={t('overview.system.title')}
        bordered
        size="small"
        column={{ xs: 1, sm: 1, md: 2 }}
        items={[
          { key: 'site', label: t('overview.system.siteName'), children: site?.site_name || t('common.appName') },
          {
            key: 'register',
            label: t('overview.system.register'),
            children: site ? t(site.register_open ? 'overview.system.open' : 'overview.system.closed') : '—',
          },
          { key: 'copyright', label: t('overview.system.copyright'), children: sysinfo?.footer_copyright || '—' },
          {
            key: 'link',
            label: t('overview.system.link'),
            children: link ? (
              <a href={link} target="_blank" rel="noopener noreferrer">
                {link}
              </a>
            ) : (
              '—'
            ),
          },
        ]}
      />
    </div>
  );
};
