import type { ReactNode } from 'react';
import { useAccess } from './useAccess.ts';

interface AccessProps {
  /** Permission codes; one of them is enough. */
  required: readonly string[] | undefined;
  /** Shown instead when access is missing; by default the element is removed. */
  fallback?: ReactNode;
  children: ReactNode;
}

/** Renders its children only for users whose access list matches (spec §6). */
export const Access = ({ required, fallback = null, children }: AccessProps) =>
  useAccess(required) ? children : fallback;
