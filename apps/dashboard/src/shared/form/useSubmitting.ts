import { useCallback, useState } from 'react';

/**
 * A form's submit: `saving` is true while `work` runs. A failure has already been shown by the
 * call's error handler (next to its field, or as a popup), so it ends here.
 */
export function useSubmitting(): [saving: boolean, submitting: (work: () => Promise<void>) => Promise<void>] {
  const [saving, setSaving] = useState(false);
  const submitting = useCallback(async (work: () => Promise<void>) => {
    setSaving(true);
    try {
      await work();
    } catch {
      // Shown next to the field or as a popup.
    } finally {
      setSaving(false);
    }
  }, []);
  return [saving, submitting];
}
