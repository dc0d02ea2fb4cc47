import { useSysInfo } from '../../../shared/system/systemInfo.ts';
import { safeExternalUrl } from '../../../shared/util/safeUrl.ts';

/** Footer text and link from GET /v1/common/sysinfo. */
export const AuthFooter = () => {
  const { data } = useSysInfo();
  if (!data?.footer_copyright) return null;
  const href = safeExternalUrl(data.footer_link);
  return (
    <footer data-testid="auth-footer" className="rp-auth-footer">
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
