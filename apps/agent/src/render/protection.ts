import {
  AclEntry as AclEntrySchema,
  CIDR_PATTERN,
  type Condition,
  EdgeBan as EdgeBanSchema,
  type EdgeProtection,
  type EdgeRuleGroup,
  EdgeRuleGroup as EdgeRuleGroupSchema,
  type EdgeSite,
  EdgeUnban as EdgeUnbanSchema,
} from '@rampart/contracts';
import { Compile } from 'typebox/compile';
import { schemaErrors } from './validate.ts';

const checkers = {
  group: Compile(EdgeRuleGroupSchema),
  ban: Compile(EdgeBanSchema),
  unban: Compile(EdgeUnbanSchema),
  acl: Compile(AclEntrySchema),
};

/** The protection part of routes.json: only what passes the contract schemas again. */
export interface RouteProtection {
  rule_groups: EdgeRuleGroup[];
  acls: EdgeProtection['acls'];
  bans: EdgeProtection['bans'];
  unbans: EdgeProtection['unbans'];
}

export interface ProtectionOutcome {
  protection: RouteProtection;
  /** Why a site's protection cannot be enforced here, by site id (the site is still served). */
  problems: Map<number, string>;
}

/**
 * Checks the snapshot's protection part item by item. A rule group or ACL that fails is left out,
 * and every site relying on it is reported: it is served without that protection until fixed.
 */
export function routeProtection(part: unknown, sites: readonly EdgeSite[]): ProtectionOutcome {
  const source = (part ?? {}) as Partial<Record<keyof RouteProtection, unknown>>;
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const problems = new Map<number, string>();
  const groups = new Map<number, EdgeRuleGroup>();
  const badGroups = new Map<number, string>();
  for (const group of list(source.rule_groups)) {
    const problem = schemaErrors(checkers.group, EdgeRuleGroupSchema, group) ?? groupProblem(group as EdgeRuleGroup);
    const id = (group as { id?: unknown })?.id;
    if (problem) {
      if (typeof id === 'number') badGroups.set(id, problem);
    } else groups.set((group as EdgeRuleGroup).id, group as EdgeRuleGroup);
  }
  const acls: RouteProtection['acls'] = [];
  for (const acl of list(source.acls)) {
    const { site_id: siteId, entries } = (acl ?? {}) as { site_id?: unknown; entries?: unknown };
    if (typeof siteId !== 'number') continue;
    const bad = list(entries).find(
      (entry) =>
        schemaErrors(checkers.acl, AclEntrySchema, entry) !== null ||
        conditionProblem((entry as { condition: Condition }).condition) !== null,
    );
    if (bad !== undefined || !Array.isArray(entries)) problems.set(siteId, 'its ACL is invalid on this node');
    else acls.push({ site_id: siteId, entries: entries as RouteProtection['acls'][number]['entries'] });
  }
  const used = new Set<number>();
  for (const site of sites) {
    const p = site.protection;
    if (!p) continue;
    for (const id of [p.rule_group_id, p.attack_rule_group_id]) {
      if (id === null) continue;
      if (groups.has(id)) used.add(id);
      else
        problems.set(
          site.id,
          `rule group ${id} is ${badGroups.has(id) ? `invalid (${badGroups.get(id)})` : 'missing'} on this node`,
        );
    }
  }
  return {
    protection: {
      rule_groups: [...used].sort((a, b) => a - b).map((id) => groups.get(id)!),
      acls,
      bans: list(source.bans).filter((ban) => checkers.ban.Check(ban)) as RouteProtection['bans'],
      unbans: list(source.unbans).filter((unban) => checkers.unban.Check(unban)) as RouteProtection['unbans'],
    },
    problems,
  };
}

const CIDR = new RegExp(CIDR_PATTERN);

/** What the schema cannot say: ip compares by CIDR (and only ip does), header names its header. */
function conditionProblem(condition: Condition): string | null {
  if ((condition.field === 'ip') !== (condition.op === 'cidr')) return 'only ip conditions compare by cidr, and always';
  if (condition.field === 'ip' && !condition.values.every((value) => CIDR.test(value))) {
    return 'an ip condition holds a value that is not an address or CIDR range';
  }
  if ((condition.field === 'header') !== (condition.header !== undefined)) return 'header conditions name a header';
  return null;
}

/**
 * Conditions must make sense (every filter type of the schema runs on this edge). Regular
 * expressions are PCRE, compiled by the edge when the config loads; one that does not compile leaves
 * its site unprotected and is reported from there (see /unprotected).
 */
function groupProblem(group: EdgeRuleGroup): string | null {
  for (const rule of group.rules) {
    for (const condition of rule.conditions) {
      const problem = conditionProblem(condition);
      if (problem) return problem;
    }
  }
  return null;
}
