import type { i18n as I18n } from 'i18next';

/** An action in words, and whether it was known (an unknown one reads as its resource and verb). */
export interface ActionText {
  text: string;
  known: boolean;
}

const CONFIGS = 'configs.';
// A dot nests a key: the tables write the resource's dots as slashes.
const keyOf = (path: string) => path.replaceAll('.', '/');
// `user-package.upgrades` → `user package upgrades`, for an action the tables do not know.
const words = (resource: string) => resource.replace(/[.\-_/]+/g, ' ').trim();

/**
 * `sites.create` → "Created site" / "创建网站": a named action first, then a settings key
 * (`configs.<key>.update`), then the resource and its verb; what no table knows stays readable.
 */
export function actionText(i18n: Pick<I18n, 't' | 'exists'>, action: string): ActionText {
  const { t, exists } = i18n;
  const named = `opLogAction.action.${keyOf(action)}`;
  if (exists(named)) return { text: t(named), known: true };
  const dot = action.lastIndexOf('.');
  const resource = dot > 0 ? action.slice(0, dot) : action;
  const verb = dot > 0 ? action.slice(dot + 1) : '';
  if (resource.startsWith(CONFIGS) && exists(`opLogAction.configVerb.${verb}`)) {
    const key = resource.slice(CONFIGS.length);
    const known = exists(`opLogAction.config.${key}`);
    const what = known ? t(`opLogAction.config.${key}`) : t('opLogAction.unknownConfig', { key });
    return { text: t(`opLogAction.configVerb.${verb}`, { what }), known };
  }
  const knownResource = exists(`opLogAction.resource.${keyOf(resource)}`);
  if (!exists(`opLogAction.verb.${verb}`)) return { text: `${words(resource)}: ${verb || action}`, known: false };
  const what = knownResource ? t(`opLogAction.resource.${keyOf(resource)}`) : words(resource);
  return { text: t(`opLogAction.verb.${verb}`, { what }), known: knownResource };
}
