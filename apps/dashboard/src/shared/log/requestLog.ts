import { create } from 'zustand';

/** The front-end log (spec §2 route `log`): failed requests of this browser session, newest first. */
export interface RequestLogEntry {
  at: string;
  method: string;
  url: string;
  code: string;
  message: string;
}

export const REQUEST_LOG_LIMIT = 200;

interface RequestLogState {
  entries: RequestLogEntry[];
  add: (entry: RequestLogEntry) => void;
  clear: () => void;
}

export const useRequestLog = create<RequestLogState>((set) => ({
  entries: [],
  add: (entry) => set(({ entries }) => ({ entries: [entry, ...entries].slice(0, REQUEST_LOG_LIMIT) })),
  clear: () => set({ entries: [] }),
}));
