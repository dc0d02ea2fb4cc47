import { useSyncExternalStore } from 'react';

/** Spec §9 breakpoints: up to 600 px is mobile, up to 992 px tablet, otherwise desktop. */
export const MOBILE_MAX_WIDTH = 600;
export const TABLET_MAX_WIDTH = 992;

export type Device = 'mobile' | 'tablet' | 'desktop';

export const deviceForWidth = (width: number): Device =>
  width <= MOBILE_MAX_WIDTH ? 'mobile' : width <= TABLET_MAX_WIDTH ? 'tablet' : 'desktop';

const QUERIES = [`(max-width: ${MOBILE_MAX_WIDTH}px)`, `(max-width: ${TABLET_MAX_WIDTH}px)`];

const subscribe = (onChange: () => void) => {
  const lists = QUERIES.map((query) => window.matchMedia(query));
  for (const list of lists) list.addEventListener('change', onChange);
  return () => {
    for (const list of lists) list.removeEventListener('change', onChange);
  };
};

// The media queries only signal the crossings; the width (as they measure it) decides the class.
const snapshot = (): Device => deviceForWidth(window.innerWidth);

/** The device class of the current window width, updated as it crosses a breakpoint. */
export const useDevice = (): Device => useSyncExternalStore(subscribe, snapshot, () => 'desktop');
