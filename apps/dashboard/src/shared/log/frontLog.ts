import { create } from 'zustand';

/**
 * The front-end log (spec §2 route `log`): uncaught errors, rejected promises and failed requests of
 * this browser tab, newest first. The header's log badge counts them.
 */
export type FrontLogKind = 'error' | 'rejection' | 'request';

export interface FrontLogEntry {
  id: number;
  at: string;
  kind: FrontLogKind;
  message: string;
  /** The page for errors, the request for failed requests. */
  url: string;
  stack?: string;
  method?: string;
  code?: string;
}

export const FRONT_LOG_LIMIT = 200;

interface FrontLogState {
  entries: FrontLogEntry[];
  add: (entry: Omit<FrontLogEntry, 'id' | 'at'> & { at?: string }) => void;
  clear: () => void;
}

let nextId = 1;

export const useFrontLog = create<FrontLogState>((set) => ({
  entries: [],
  add: (entry) =>
    set(({ entries }) => ({
      entries: [{ ...entry, id: nextId++, at: entry.at ?? new Date().toISOString() }, ...entries].slice(
        0,
        FRONT_LOG_LIMIT,
      ),
    })),
  clear: () => set({ entries: [] }),
}));

const describe = (reason: unknown): { message: string; stack?: string } => {
  if (reason instanceof Error) return { message: reason.message || reason.name, stack: reason.stack };
  if (typeof reason === 'string') return { message: reason };
  try {
    return { message: JSON.stringify(reason) ?? String(reason) };
  } catch {
    return { message: String(reason) };
  }
};

/** Records an error a component caught (an error boundary) like an uncaught one. */
export const logError = (error: unknown, kind: FrontLogKind = 'error'): void =>
  useFrontLog.getState().add({ kind, url: window.location.href, ...describe(error) });

/** Sends uncaught errors and unhandled rejections of this window to the front-end log. */
export const installErrorLog = (target: Window = window): (() => void) => {
  const onError = (event: ErrorEvent) => {
    const described =
      event.error === undefined || event.error === null ? { message: event.message } : describe(event.error);
    useFrontLog.getState().add({ kind: 'error', url: target.location.href, ...described });
  };
  const onRejection = (event: PromiseRejectionEvent) => logError(event.reason, 'rejection');
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
};
