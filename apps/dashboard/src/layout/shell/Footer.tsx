import { useSysInfo } from '../../shared/system/systemInfo.ts';
import { safeExternalUrl } from '../../shared/util/safeUrl.ts';

/** The console footer: the copyright line and link of GET /v1/common/sysinfo. */
export const Footer = () => {
  const { data } = useSysInfo();
  if (!data?.footer_copyright) return null;
  const href = safeExternalUrl(data.footer_link);
  return (
    <footer className="rp-footer" data-testid="console-footer">
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
