import { useSysInfo } from '../api.ts';
import { safeExternalUrl } from '../safeUrl.ts';

/** Footer text and link from GET /v1/common/sysinfo. */
export const AuthFooter = () => {
  const { data } = useSysInfo();
  if (!data?.footer_copyright) return null;
  const href = safeExternalUrl(data.footer_link);
  return (
    <footer data-testid="auth-footer" style={{ textAlign: 'center', padding: '16px 0', color: 'rgba(0,0,0,0.45)' }}>
      {href ? (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {data.footer_copyright}
        </a>
      ) : (
        data.footer_copyright
      )}
    </footer>
  );
};
