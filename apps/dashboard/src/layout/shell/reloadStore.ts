import { create } from 'zustand';

interface ReloadState {
  /** How many times each page (by fullPath) was reloaded; part of its React key. */
  counts: Record<string, number>;
  reload: (fullPath: string) => void;
}

/** The reload button and a click on the current tab re-create the page (and drop its kept-alive state). */
export const useReloads = create<ReloadState>((set) => ({
  counts: {},
  reload: (fullPath) => set(({ counts }) => ({ counts: { ...counts, [fullPath]: (counts[fullPath] ?? 0) + 1 } })),
}));
