import type { FieldPath } from '../../sites/edgeRules.ts';

/** List fields the forms edit as one text box, by the name the master uses. */
const TEXT_BOXES: Record<string, string> = {
  values: 'valuesText',
  whitelist: 'whitelistText',
  exclusions: 'exclusionsText',
  inspect_static: 'inspectStatic',
  static_exts: 'staticExts',
};

/**
 * The form field a master message names: `conditions/0/values/3` is the first condition's values box,
 * `protection/whitelist/2` the whitelist box (the section's form holds the protection's fields at its root)
 * and `entries/1/condition/op` the second ACL entry's op.
 */
export const formPath = (name: FieldPath): FieldPath => {
  const path: FieldPath = [];
  for (const [index, part] of name.entries()) {
    if (index === 0 && part === 'protection') continue;
    // The ACL calls name its entries `entries`; the section edits them as `acl`.
    if (index === 0 && part === 'entries') {
      path.push('acl');
      continue;
    }
    const box = typeof part === 'string' ? TEXT_BOXES[part] : undefined;
    if (box) return [...path, box];
    path.push(part);
  }
  return path;
};
