import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

// Unit tests run in node; component tests opt into jsdom with a `@vitest-environment jsdom` comment.
export default defineProject({
  plugins: [react()],
  test: {
    name: 'dashboard',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'build/**/*.test.ts'],
    environment: 'node',
    // A worker keeps its imported modules from one file to the next (re-importing antd and React for
    // each of 69 files was 85% of this project's time); each test renders into its own container.
    isolate: false,
    // Runs beside the unit project in one `vitest run`, which needs the same worker count.
    maxWorkers: 2,
    testTimeout: 20_000,
    expect: { poll: { timeout: 15_000 } },
  },
});
