/** The objects of an operation by name where the master found one (same order as the ids), else by id. */
export const targetText = (entry: { target_ids: readonly string[]; target_names?: readonly string[] }): string =>
  entry.target_ids.map((id, index) => entry.target_names?.[index] || id).join(', ');

/** Whether the master named any of the objects (then the ids are worth showing beside the names). */
export const hasTargetNames = (entry: { target_ids: readonly string[]; target_names?: readonly string[] }): boolean =>
  (entry.target_names ?? []).some((name) => name !== '');
