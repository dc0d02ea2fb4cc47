import { USER_TYPE, type User } from '@rampart/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BASE_PATH } from '../../app/basePath.ts';
import { useSiteConfig } from '../../shared/system/systemInfo.ts';
import { isSameOriginUrl } from '../../shared/util/safeUrl.ts';

/** Spec §2: the header logo links to admin-home for admins (type 1), to home for everyone else. */
export const logoTarget = (user: Pick<User, 'type'>): string =>
  user.type === USER_TYPE.admin ? '/admin-home' : '/home';

interface LogoProps {
  user: Pick<User, 'type'>;
  /** The picture only. */
  compact?: boolean;
  width?: number;
}

export const Logo = ({ user, compact = false, width }: LogoProps) => {
  const { t } = useTranslation();
  const site = useSiteConfig();
  const name = site?.site_name || t('common.appName');
  const logo = site?.logo_url && isSameOriginUrl(site.logo_url) ? site.logo_url : `${BASE_PATH}favicon.svg`;
  return (
    <Link
      to={logoTarget(user)}
      className={compact ? 'rp-logo rp-logo-compact' : 'rp-logo'}
      style={width === undefined ? undefined : { width }}
      aria-label={t('layout.header.home')}
      data-testid="header-logo"
    >
      <img src={logo} alt="" width={28} height={28} />
      {!compact && <span className="rp-logo-name">{name}</span>}
    </Link>
  );
};
