import { describe, expect, it } from 'vitest';
import { checklistItems, type SetupItem } from './setupChecklist.ts';

const item = (key: SetupItem['key'], done: boolean | null): SetupItem => ({ key, done, path: `/${key}` });

describe('checklistItems', () => {
  it('lists the held items while one of them is not done', () => {
    const items = checklistItems({ items: [item('node', true), item('smtp', false), item('payment', null)] });
    expect(items?.map((entry) => entry.key)).toEqual(['node', 'smtp']);
  });
  it('hides the checklist once every held item is done, or when none is held', () => {
    expect(checklistItems({ items: [item('node', true), item('smtp', null)] })).toBeNull();
    expect(checklistItems({ items: [item('smtp', null)] })).toBeNull();
    expect(checklistItems(undefined)).toBeNull();
  });
});
