import type { CSSProperties } from 'react';

/** A white panel on the console's grey background. */
export const PANEL: CSSProperties = { background: '#fff', padding: '16px 24px', borderRadius: 8, marginBottom: 16 };
