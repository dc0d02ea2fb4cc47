import type { RuleObject } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { Problem } from '../model/problems.ts';

export const problemText = (t: TFunction, problem: Problem): string =>
  t(`protection.rule.${problem.key}`, problem.values ?? {});

/** An antd rule from a model check, so a form refuses exactly what the model (and the master) refuses. */
export const checkRule = (t: TFunction, check: (value: unknown) => Problem | undefined): RuleObject => ({
  validator: async (_rule, value: unknown) => {
    const problem = check(value);
    if (problem) throw new Error(problemText(t, problem));
  },
});
