import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstLoadChunks } from './build/firstLoadChunks.ts';
import { pureSchemas } from './build/pureSchemas.ts';
import { precompress } from './precompress.ts';
import { BASE_PATH } from './src/app/basePath.ts';

// Modules that do nothing when imported, though their packages do not say so: the contracts (and
// TypeBox under them) only declare schemas, and antd's rc-components only define components. Without
// this, a page that needs the route records pulls in every schema of the API, and the console's
// dropdowns pull in the whole of rc-form (antd's ContextIsolator needs only its FormProvider).
const SIDE_EFFECT_FREE = /\/packages\/contracts\/src\/|\/node_modules\/(typebox|@rc-component)\//;

const firstLoad = firstLoadChunks();

export default defineConfig({
  base: BASE_PATH,
  plugins: [react(), pureSchemas(), firstLoad.plugin, precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id: string) => !SIDE_EFFECT_FREE.test(id) },
      output: { codeSplitting: { groups: firstLoad.groups } },
    },
  },
  server: { proxy: { '/v1': 'http://127.0.0.1:8080' } },
});
