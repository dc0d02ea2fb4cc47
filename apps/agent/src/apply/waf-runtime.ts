import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { WAF_MODULE } from '../render/nginx-conf.ts';
import type { CrsPaths } from '../render/waf.ts';

/**
 * The OWASP Core Rule Set of this node, when nginx's ModSecurity module and the CRS are installed
 * (Debian: libnginx-mod-http-modsecurity, modsecurity-crs); null otherwise, and sites with the WAF
 * on are then served without it and reported. The locations can be moved with RAMPART_CRS_DIR
 * (the rules directory), RAMPART_CRS_SETUP and RAMPART_MODSECURITY_UNICODE_MAP.
 */
export function findCrs(modulesDir: string, env: NodeJS.ProcessEnv = process.env): CrsPaths | null {
  const rulesDir = env.RAMPART_CRS_DIR ?? '/usr/share/modsecurity-crs/rules';
  const setup = env.RAMPART_CRS_SETUP ?? '/etc/modsecurity/crs/crs-setup.conf';
  const unicodeMap = env.RAMPART_MODSECURITY_UNICODE_MAP ?? '/etc/nginx/unicode.mapping';
  const installed =
    existsSync(join(modulesDir, WAF_MODULE)) &&
    existsSync(setup) &&
    existsSync(join(rulesDir, 'REQUEST-901-INITIALIZATION.conf'));
  if (!installed) return null;
  return { setup, rulesDir, unicodeMap: existsSync(unicodeMap) ? unicodeMap : null };
}
