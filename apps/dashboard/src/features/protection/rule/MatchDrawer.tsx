import type { MatchRow } from '../api.ts';
import { matchBody, matchDraft, NEW_MATCH } from '../model/matchPayload.ts';
import { ConditionsEditor } from './ConditionsEditor.tsx';
import { ObjectDrawer } from './ObjectDrawer.tsx';

export const MatchDrawer = ({ row, onClose }: { row: MatchRow | undefined; onClose: () => void }) => (
  <ObjectDrawer
    kind="matches"
    row={row}
    initialValues={row ? matchDraft(row) : NEW_MATCH}
    toBody={matchBody}
    fields={['conditions']}
    onClose={onClose}
  >
    {(readOnly) => <ConditionsEditor disabled={readOnly} />}
  </ObjectDrawer>
);
