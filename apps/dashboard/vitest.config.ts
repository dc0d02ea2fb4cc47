import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

// Unit tests run in node; component tests opt into jsdom with a `@vitest-environment jsdom` comment.
export default defineProject({
  plugins: [react()],
  test: {
    name: 'dashboard',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 20_000,
    expect: { poll: { timeout: 15_000 } },
  },
});
