import { useEffect, useState } from 'react';

/** Spec §9: the header hides once the page has scrolled down past 300 px. */
export const HIDE_HEADER_AFTER_PX = 300;

/** The next visibility for a scroll from `previous` to `current` (spec §4). */
export const headerVisibleAfterScroll = (visible: boolean, previous: number, current: number): boolean => {
  if (current <= 0) return true;
  if (current > previous) return current > HIDE_HEADER_AFTER_PX ? false : visible;
  if (current < previous) return true;
  return visible;
};

/** With hide-on-scroll on: hidden while scrolling down past 300 px, shown again on scrolling up. */
export const useHideOnScroll = (enabled: boolean): boolean => {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (!enabled) {
      setVisible(true);
      return;
    }
    let previous = window.scrollY;
    const onScroll = () => {
      const current = window.scrollY;
      setVisible((shown) => headerVisibleAfterScroll(shown, previous, current));
      previous = current;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled]);
  return visible;
};
