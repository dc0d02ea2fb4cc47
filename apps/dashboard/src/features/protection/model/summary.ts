import type { Condition } from '@rampart/contracts';
import type { TFunction } from 'i18next';
import type { FilterRow } from '../api.ts';

const SHOWN_VALUES = 3;

/** One condition in a line: `Path not prefix /admin, /wp (+2)`. */
export const conditionSummary = (t: TFunction, condition: Condition): string => {
  const field =
    condition.field === 'header'
      ? `${t('protection.field.header')} ${condition.header ?? ''}`
      : t(`protection.field.${condition.field}`);
  const op = `${condition.negate ? `${t('protection.condition.not')} ` : ''}${t(`protection.op.${condition.op}`)}`;
  const shown = condition.values.slice(0, SHOWN_VALUES).join(', ');
  const more = condition.values.length > SHOWN_VALUES ? ` (+${condition.values.length - SHOWN_VALUES})` : '';
  return `${field} ${op} ${shown}${more}`;
};

/** A filter's settings in words: `60 requests in 60 s per IP`, `cookie valid 1800 s`, `wait 1000 ms`. */
export const filterSummary = (t: TFunction, filter: FilterRow): string => {
  switch (filter.type) {
    case 'rate':
      return t('protection.filterSummary.rate', {
        requests: filter.requests ?? 0,
        seconds: filter.seconds ?? 0,
        per: t(`protection.per.${filter.per ?? 'ip'}`),
      });
    case 'delay':
      return t('protection.filterSummary.delay', { ms: filter.delay_ms ?? 0 });
    default:
      return t('protection.filterSummary.challenge', { seconds: filter.valid_seconds ?? 0 });
  }
};
