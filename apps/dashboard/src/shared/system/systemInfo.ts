import type { SiteSysConfig, SysInfo } from '@rampart/contracts';
import { useHttp } from '../http/HttpProvider.tsx';
import { useLoaded } from '../http/useLoaded.ts';

/** Footer text and link (GET /v1/common/sysinfo): the sign-in pages, the console footer, the overview. */
export const useSysInfo = () => {
  const http = useHttp();
  return useLoaded('common/sysinfo', () => http.get<SysInfo>('/v1/common/sysinfo'));
};

/** Site name and logo (GET /v1/site-sys-config): the header logo and the overview. */
export const useSiteConfig = () => {
  const http = useHttp();
  return useLoaded('site-sys-config', () => http.get<SiteSysConfig>('/v1/site-sys-config')).data;
};
