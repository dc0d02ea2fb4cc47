import {
  DEFAULT_SITE_HEALTH_CHECK,
  HEALTH_CHECK_HOST_PATTERN,
  HEALTH_CHECK_MAX_COUNT,
  HEALTH_CHECK_MAX_INTERVAL,
  HEALTH_CHECK_MAX_STATUSES,
  HEALTH_CHECK_MAX_TIMEOUT,
  HEALTH_CHECK_PATH_PATTERN,
  type SiteHealthCheck,
} from '@rampart/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import type { FieldPath } from '../edgeRules.ts';

/** The section's values: the healthy statuses as typed into a tags box. */
export type HealthCheckValues = Omit<SiteHealthCheck, 'statuses'> & { statuses: string[] };

/** The stored setting; a site saved before health checks existed reads as the default (off). */
export const storedHealthCheck = (check: SiteHealthCheck | undefined): SiteHealthCheck =>
  check ?? DEFAULT_SITE_HEALTH_CHECK;

export const healthCheckValues = (check: SiteHealthCheck | undefined): HealthCheckValues => {
  const stored = storedHealthCheck(check);
  return { ...stored, statuses: stored.statuses.map(String) };
};

/** The whole object PUT /v1/sites/{id} takes, in the contract's key order. */
export const healthCheckBody = (values: HealthCheckValues): SiteHealthCheck => ({
  enabled: values.enabled,
  path: values.path.trim(),
  host: values.host.trim().toLowerCase(),
  statuses: values.statuses.map(Number),
  interval: values.interval,
  timeout: values.timeout,
  failures: values.failures,
  successes: values.successes,
});

/** Statuses as typed: trimmed, each once. */
export const normalizeStatuses = (statuses: readonly string[] | undefined): string[] => [
  ...new Set((statuses ?? []).map((status) => String(status).trim()).filter((status) => status !== '')),
];

/** The section's field for a server-named one: a status's message shows at the statuses box. */
export const healthCheckFieldPath = (name: FieldPath): FieldPath => {
  const field = name[1];
  if (field === undefined) return ['health_check', 'enabled'];
  return ['health_check', field];
};

const PATH = new RegExp(HEALTH_CHECK_PATH_PATTERN);
const HOST = new RegExp(HEALTH_CHECK_HOST_PATTERN);

const whole = (t: TFunction, key: string, min: number, max: number): Rule[] => [
  { required: true, type: 'integer', min, max, message: t(`sites.healthCheck.rule.${key}`, { min, max }) },
];

/** Form rules from the contract's limits; messages name what is wrong and what is allowed. */
export const healthCheckRules = (t: TFunction) => ({
  path: [
    { required: true, whitespace: true, message: t('sites.healthCheck.rule.path') },
    {
      validator: async (_rule, value: string | undefined) => {
        const path = value?.trim() ?? '';
        if (path !== '' && (path.length > 1024 || !PATH.test(path))) throw new Error(t('sites.healthCheck.rule.path'));
      },
    },
  ] satisfies Rule[],
  host: [
    {
      validator: async (_rule, value: string | undefined) => {
        if (!HOST.test(value?.trim() ?? '')) throw new Error(t('sites.healthCheck.rule.host'));
      },
    },
  ] satisfies Rule[],
  statuses: [
    {
      validator: async (_rule, value: string[] | undefined) => {
        const statuses = value ?? [];
        if (statuses.length === 0 || statuses.length > HEALTH_CHECK_MAX_STATUSES) {
          throw new Error(t('sites.healthCheck.rule.statusesCount', { max: HEALTH_CHECK_MAX_STATUSES }));
        }
        const wrong = statuses.find((status) => !/^[1-5][0-9]{2}$/.test(status));
        if (wrong !== undefined) throw new Error(t('sites.healthCheck.rule.status', { status: wrong }));
      },
    },
  ] satisfies Rule[],
  interval: whole(t, 'interval', 1, HEALTH_CHECK_MAX_INTERVAL),
  timeout: [
    ...whole(t, 'timeout', 1, HEALTH_CHECK_MAX_TIMEOUT),
    ({ getFieldValue }) => ({
      validator: async (_rule, value: number | null | undefined) => {
        const interval = getFieldValue(['health_check', 'interval']) as number | null | undefined;
        if (typeof value === 'number' && typeof interval === 'number' && value > interval) {
          throw new Error(t('sites.healthCheck.rule.timeoutInterval', { interval }));
        }
      },
    }),
  ] satisfies Rule[],
  failures: whole(t, 'failures', 1, HEALTH_CHECK_MAX_COUNT),
  successes: whole(t, 'successes', 1, HEALTH_CHECK_MAX_COUNT),
});
