import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WAF_MODULE } from '../render/nginx-conf.ts';
import type { CrsPaths, CrsRuleFile } from '../render/waf.ts';

/**
 * The OWASP Core Rule Set of this node, when nginx's ModSecurity module and the CRS are installed
 * (Debian: libnginx-mod-http-modsecurity, modsecurity-crs); null otherwise, and sites with the WAF
 * on are then served without it and reported. The locations can be moved with RAMPART_CRS_DIR
 * (the rules directory), RAMPART_CRS_SETUP and RAMPART_MODSECURITY_UNICODE_MAP. The rule files and
 * the setup are read too, so that the tree loads a copy trimmed for its sites' paranoia levels.
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
  const read = readCrs(rulesDir, setup);
  return { setup, rulesDir, unicodeMap: existsSync(unicodeMap) ? unicodeMap : null, ...read };
}

let lastRead: { key: string; ruleFiles: CrsRuleFile[]; setupText: string } | null = null;

/**
 * The rule files (*.conf in name order, as ModSecurity's Include reads them) and the setup's text,
 * read again only when a file's size or time changed (every apply asks); empty when unreadable,
 * and the tree then includes rulesDir itself.
 */
function readCrs(rulesDir: string, setup: string): Pick<CrsPaths, 'ruleFiles' | 'setupText'> {
  try {
    const names = readdirSync(rulesDir)
      .filter((name) => name.endsWith('.conf'))
      .sort();
    const stamp = (file: string) => {
      const stat = statSync(file);
      return `${stat.size}:${stat.mtimeMs}`;
    };
    const key = [setup, stamp(setup), rulesDir, ...names.map((name) => `${name}=${stamp(join(rulesDir, name))}`)].join(
      '|',
    );
    if (lastRead?.key !== key) {
      const ruleFiles = names.map((name) => ({ name, text: readFileSync(join(rulesDir, name), 'utf8') }));
      lastRead = { key, ruleFiles, setupText: readFileSync(setup, 'utf8') };
    }
    return { ruleFiles: lastRead.ruleFiles, setupText: lastRead.setupText };
  } catch {
    return {};
  }
}
