import type {
  Condition,
  FilterSettings,
  NotEvaluated,
  PreviewCondition,
  PreviewRule,
  RulePreview,
  RulePreviewBody,
  SiteSettings,
} from '@rampart/contracts';
import type { Kysely, RawBuilder, SqlBool } from 'kysely';
import type { EventStore } from '../../db/events.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, invalidParam } from '../../errors.ts';
import { filterOf } from '../protection/cc-filters.service.ts';
import { usableOwners } from '../protection/cc-owner.ts';
import { checkCondition, checkConditions } from '../protection/conditions.ts';
import { findSite } from '../sites/sites.repository.ts';
import type { Owner } from '../tenancy.ts';
import { cidrTest, compileCondition, type RequestTest } from './preview-conditions.ts';
import { type PreviewLine, type PreviewPlan, RuleReplay } from './preview-replay.ts';
import { allFilter, anyFilter, conditionFilter, logDialect } from './preview-sql.ts';
import {
  type AlikeColumn,
  alikeLines,
  countSiteLines,
  narrowedLines,
  newestLines,
  type PreviewRange,
  usableFilters,
  usableMatches,
} from './rule-preview.repository.ts';

const HOUR_MS = 3_600_000;
const DEFAULT_BAN_SECONDS = 600;
/** Newest lines an ACL's samples are looked for in first (then the older ones, if need be). */
const NEWEST_FIRST = 1000;

/** The draft's condition with what its schema leaves out filled in as the create calls would. */
const conditionOf = (condition: PreviewCondition): Condition => ({ ...condition, negate: condition.negate ?? false });

/** A draft line: its conditions, where they are in the body, and what it does. */
interface DraftLine {
  conditions: Condition[];
  /** How the answer names the conditions: `rule.match.conditions` or `rule.rules[0].match_id`. */
  at: string;
  filter: FilterSettings;
  action: PreviewLine['action'];
  banSeconds: number;
}

/** The filter's settings checked as the filter calls check them, named under `rule/filter`. */
function draftFilter(filter: Extract<PreviewRule, { type: 'cc_match' }>['filter']): FilterSettings {
  const { type, ...params } = filter;
  try {
    return filterOf('preview', type, params, {});
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_param' && error.params?.field !== undefined) {
      throw invalidParam(`rule/filter/${error.params.field}`, String(error.params.rule));
    }
    throw error;
  }
}

/** A rule group's lines: matches and filters the site's owner may use (their own and system ones), as a group's lines may. */
async function groupLines(
  db: Kysely<Database>,
  siteOwner: number,
  rule: Extract<PreviewRule, { type: 'rule_group' }>,
): Promise<DraftLine[]> {
  if (rule.rules.length === 0) return [];
  const owners = usableOwners(siteOwner);
  const matches = await usableMatches(
    db,
    owners,
    rule.rules.map((line) => line.match_id),
  );
  const filters = await usableFilters(
    db,
    owners,
    rule.rules.map((line) => line.filter_id),
  );
  return rule.rules.map((line, index) => {
    const conditions = matches.get(line.match_id);
    if (!conditions) throw invalidParam(`rule/rules/${index}/match_id`, `match ${line.match_id} does not exist`);
    const filter = filters.get(line.filter_id);
    if (!filter) throw invalidParam(`rule/rules/${index}/filter_id`, `filter ${line.filter_id} does not exist`);
    return {
      conditions,
      at: `rule.rules[${index}].match_id`,
      filter,
      action: line.action,
      banSeconds: line.ban_seconds ?? DEFAULT_BAN_SECONDS,
    };
  });
}

/** The conditions' test, or null (and why, in `notEvaluated`) when the log cannot answer one of them. */
function linesTest(line: DraftLine, notEvaluated: NotEvaluated[]): RequestTest | null {
  const tests: RequestTest[] = [];
  for (const [index, condition] of line.conditions.entries()) {
    const compiled = compileCondition(condition);
    if (compiled.kind === 'not_evaluated') {
      const reason = `${compiled.reason}; the line is left out of the preview`;
      // A draft match's condition has a path of its own; a stored match's is named by its index.
      notEvaluated.push(
        line.at.endsWith('.conditions')
          ? { path: `${line.at}[${index}]`, reason }
          : { path: line.at, condition: index, reason: `condition ${index}: ${reason}` },
      );
      return null;
    }
    tests.push(compiled.test);
  }
  return (request) => tests.every((test) => test(request));
}

interface Plan {
  plan: PreviewPlan;
  narrowing: ReturnType<typeof anyFilter>;
  notEvaluated: NotEvaluated[];
}

async function planOf(
  db: Kysely<Database>,
  dialect: ReturnType<typeof logDialect>,
  site: { user_id: number; settings: string },
  rule: PreviewRule,
): Promise<Plan> {
  const notEvaluated: NotEvaluated[] = [];
  if (rule.type === 'acl') {
    const conditions = rule.entries.map((entry) => conditionOf(entry.condition));
    for (const [index, condition] of conditions.entries()) checkCondition(condition, `rule/entries/${index}/condition`);
    const entries = rule.entries.map((entry, index) => {
      const compiled = compileCondition(conditions[index] as Condition);
      if (compiled.kind === 'test') return { allow: entry.action === 'allow', test: compiled.test };
      notEvaluated.push({
        path: `rule.entries[${index}].condition`,
        reason: `${compiled.reason}; the entry is left out of the preview`,
      });
      return { allow: entry.action === 'allow', test: null };
    });
    const narrowing = anyFilter(
      conditions.filter((_, index) => entries[index]?.test).map((condition) => conditionFilter(dialect, condition)),
    );
    const reads = new Set<AlikeColumn>();
    for (const { field, header } of conditions) {
      if (field === 'method' || field === 'host' || field === 'referer') reads.add(field);
      if (field === 'header' && header?.toLowerCase() === 'referer') reads.add('referer');
    }
    return { plan: { kind: 'acl', entries, reads: [...reads] }, narrowing, notEvaluated };
  }
  let drafts: DraftLine[];
  if (rule.type === 'cc_match') {
    const conditions = rule.match.conditions.map(conditionOf);
    checkConditions(conditions, 'rule/match/conditions');
    drafts = [
      {
        conditions,
        at: 'rule.match.conditions',
        filter: draftFilter(rule.filter),
        action: rule.action,
        banSeconds: rule.ban_seconds ?? DEFAULT_BAN_SECONDS,
      },
    ];
  } else {
    drafts = await groupLines(db, site.user_id, rule);
  }
  const lines: PreviewLine[] = drafts.map((draft) => ({
    test: linesTest(draft, notEvaluated),
    filter: draft.filter,
    action: draft.action,
    banSeconds: draft.banSeconds,
  }));
  const whitelist = (JSON.parse(site.settings) as Partial<SiteSettings>).protection?.whitelist ?? [];
  const narrowing = anyFilter(
    drafts.filter((_, index) => lines[index]?.test).map((draft) => allFilter(dialect, draft.conditions)),
  );
  return {
    plan: { kind: 'lines', lines, whitelisted: whitelist.length > 0 ? cidrTest(whitelist) : null },
    narrowing,
    notEvaluated,
  };
}

/**
 * Feeds the replay. On ClickHouse an ACL (each line decided alone) takes the lines alike but for time
 * counted together by the database, and its samples from the newest lines: the fewer lines leave
 * the database, the sooner the answer. Everything else goes through in time order.
 */
async function replayLines(
  events: EventStore,
  plan: PreviewPlan,
  range: PreviewRange,
  narrowing: RawBuilder<SqlBool>,
  replay: RuleReplay,
) {
  if (plan.kind === 'acl' && events.kind === 'clickhouse') {
    for await (const batch of alikeLines(events, range, narrowing, plan.reads)) {
      for (const { requests, ...line } of batch) replay.addAlike(line, requests);
    }
    sampling: for await (const batch of newestLines(events, range, narrowing, NEWEST_FIRST)) {
      for (const line of batch) if (!replay.sample(line)) break sampling;
    }
    return;
  }
  for await (const page of narrowedLines(events, range, narrowing)) for (const line of page) replay.add(line);
}

/**
 * What `body.rule` would have done to the site's traffic of the last `hours`: the database hands
 * over the lines the rule may select (preview-sql.ts), the replay decides each as the edge would.
 */
export async function previewRule(
  stores: { db: Kysely<Database>; events: EventStore },
  owner: Owner,
  body: RulePreviewBody,
  now: number,
): Promise<RulePreview> {
  const site = await findSite(stores.db, owner, body.site_id);
  if (!site) throw new AppError('not_found', `site_id: site ${body.site_id} does not exist`);
  const logs = stores.events.db;
  const { plan, narrowing, notEvaluated } = await planOf(stores.db, logDialect(logs), site, body.rule);
  const range = { siteId: site.id, fromMs: now - body.hours * HOUR_MS, toMs: now };
  const replay = new RuleReplay(plan);
  const [scanned] = await Promise.all([
    countSiteLines(logs, range),
    replayLines(stores.events, plan, range, narrowing, replay),
  ]);
  return {
    site_id: site.id,
    hours: body.hours,
    from: new Date(range.fromMs).toISOString(),
    to: new Date(range.toMs).toISOString(),
    scanned,
    ...replay.tally(),
    not_evaluated: notEvaluated,
  };
}
