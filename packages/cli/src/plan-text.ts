import type { ImportPlan, PlanChange } from '@rampart/contracts';

const SIGN: Record<PlanChange['action'], string> = { create: '+', update: '~', delete: '-' };

const shown = (value: unknown) => (value === undefined ? 'null' : JSON.stringify(value));

/** A plan as lines to read: `+ site "blog"`, `~` with each field's `from -> to`, `-`, then the counts. */
export function planText(plan: Pick<ImportPlan, 'changes'>): string {
  if (plan.changes.length === 0) return 'No changes. The configuration matches the document.';
  const lines: string[] = [];
  for (const change of plan.changes) {
    lines.push(`${SIGN[change.action]} ${change.kind} "${change.name}"`);
    for (const field of change.fields ?? []) {
      lines.push(`    ${field.path}: ${shown(field.from)} -> ${shown(field.to)}`);
    }
  }
  const count = (action: PlanChange['action']) => plan.changes.filter((change) => change.action === action).length;
  lines.push('', `Plan: ${count('create')} to create, ${count('update')} to change, ${count('delete')} to delete.`);
  return lines.join('\n');
}
