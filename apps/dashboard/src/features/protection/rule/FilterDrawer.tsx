import type { FilterRow } from '../api.ts';
import { filterBody, filterDraft, NEW_FILTER } from '../model/filterPayload.ts';
import { FilterFields } from './FilterFields.tsx';
import { ObjectDrawer } from './ObjectDrawer.tsx';

export const FilterDrawer = ({ row, onClose }: { row: FilterRow | undefined; onClose: () => void }) => (
  <ObjectDrawer
    kind="filters"
    row={row}
    initialValues={row ? filterDraft(row) : NEW_FILTER}
    toBody={filterBody}
    fields={['type', 'requests', 'seconds', 'per', 'valid_seconds', 'delay_ms']}
    onClose={onClose}
  >
    {() => <FilterFields />}
  </ObjectDrawer>
);
