import { type ReactNode, Suspense, useState } from 'react';

/**
 * Renders a lazily loaded dialog from the first time it opens on: its code loads on first use, and
 * afterwards it stays mounted so that it can animate closed and keep what it holds.
 */
export const LoadOnOpen = ({ open, children }: { open: boolean; children: ReactNode }) => {
  const [opened, setOpened] = useState(open);
  // Derived from the props during render (React's pattern for state that follows a prop).
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
};
