import type { RuleGroupRow } from '../api.ts';
import { groupBody, groupDraft, NEW_GROUP } from '../model/groupPayload.ts';
import { GroupPreview } from '../preview/LazyPreviews.tsx';
import { ObjectDrawer } from './ObjectDrawer.tsx';
import { RuleLinesEditor } from './RuleLinesEditor.tsx';

export const GroupDrawer = ({ row, onClose }: { row: RuleGroupRow | undefined; onClose: () => void }) => (
  <ObjectDrawer
    kind="groups"
    row={row}
    initialValues={row ? groupDraft(row) : NEW_GROUP}
    toBody={groupBody}
    fields={['rules']}
    onClose={onClose}
  >
    {(readOnly, owner) => (
      <>
        <RuleLinesEditor disabled={readOnly} owner={owner} />
        <GroupPreview />
      </>
    )}
  </ObjectDrawer>
);
