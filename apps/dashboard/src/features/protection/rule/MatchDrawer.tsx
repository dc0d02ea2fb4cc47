import type { MatchRow } from '../api.ts';
import { matchBody, matchDraft, NEW_MATCH } from '../model/matchPayload.ts';
import { MatchPreview } from '../preview/LazyPreviews.tsx';
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
    {(readOnly, owner) => (
      <>
        <ConditionsEditor disabled={readOnly} />
        <MatchPreview owner={owner} />
      </>
    )}
  </ObjectDrawer>
);
