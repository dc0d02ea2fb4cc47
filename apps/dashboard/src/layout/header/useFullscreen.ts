import { useCallback, useSyncExternalStore } from 'react';

const subscribe = (onChange: () => void) => {
  document.addEventListener('fullscreenchange', onChange);
  return () => document.removeEventListener('fullscreenchange', onChange);
};

/** Whether the page is full screen, and a toggle that enters or leaves it. */
export const useFullscreen = () => {
  const active = useSyncExternalStore(
    subscribe,
    () => document.fullscreenElement !== null,
    () => false,
  );
  const toggle = useCallback(() => {
    const change = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    // Browsers refuse full screen in some frames and policies; the button then does nothing.
    change.catch(() => undefined);
  }, []);
  return { active, toggle };
};
