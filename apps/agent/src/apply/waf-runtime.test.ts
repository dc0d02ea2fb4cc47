import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WAF_MODULE } from '../render/nginx-conf.ts';
import { findCrs } from './waf-runtime.ts';

describe('findCrs', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function node(): { modules: string; env: NodeJS.ProcessEnv; rules: string; setup: string } {
    const root = mkdtempSync(join(tmpdir(), 'rampart-crs-'));
    dirs.push(root);
    const modules = join(root, 'modules');
    const rules = join(root, 'rules');
    mkdirSync(modules);
    mkdirSync(rules);
    writeFileSync(join(modules, WAF_MODULE), '');
    const setup = join(root, 'crs-setup.conf');
    writeFileSync(setup, 'SecAction "id:900990,phase:1,nolog,pass,t:none,setvar:tx.crs_setup_version=334"\n');
    writeFileSync(join(rules, 'REQUEST-911-METHOD-ENFORCEMENT.conf'), '# 911\n');
    writeFileSync(join(rules, 'REQUEST-901-INITIALIZATION.conf'), '# 901\n');
    writeFileSync(join(rules, 'scanners-user-agents.data'), 'nikto\n');
    const env = {
      RAMPART_CRS_DIR: rules,
      RAMPART_CRS_SETUP: setup,
      RAMPART_MODSECURITY_UNICODE_MAP: join(root, 'none'),
    };
    return { modules, env, rules, setup };
  }

  it('reads the rule files in the order ModSecurity includes them, and the setup, for the tree’s own copy', () => {
    const { modules, env, rules, setup } = node();
    const crs = findCrs(modules, env);
    expect(crs).toMatchObject({ rulesDir: rules, setup, unicodeMap: null });
    expect(crs?.ruleFiles?.map((file) => file.name)).toEqual([
      'REQUEST-901-INITIALIZATION.conf',
      'REQUEST-911-METHOD-ENFORCEMENT.conf',
    ]);
    expect(crs?.ruleFiles?.[0]?.text).toBe('# 901\n');
    expect(crs?.setupText).toContain('crs_setup_version=334');
  });

  it('reads a rule file again once it changed', () => {
    const { modules, env, rules } = node();
    expect(findCrs(modules, env)?.ruleFiles?.[1]?.text).toBe('# 911\n');
    const file = join(rules, 'REQUEST-911-METHOD-ENFORCEMENT.conf');
    writeFileSync(file, '# 911, updated\n');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(findCrs(modules, env)?.ruleFiles?.[1]?.text).toBe('# 911, updated\n');
  });

  it('finds no CRS where the module or the rules are missing', () => {
    const { modules, env } = node();
    expect(findCrs(join(modules, 'elsewhere'), env)).toBe(null);
    expect(findCrs(modules, { ...env, RAMPART_CRS_DIR: join(modules, 'none') })).toBe(null);
  });
});
