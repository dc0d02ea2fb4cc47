import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';
import { BASE_PATH } from './src/app/basePath.ts';

export default defineConfig({
  base: BASE_PATH,
  plugins: [react(), precompress('dist')],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 600 },
  server: { proxy: { '/v1': 'http://127.0.0.1:8080' } },
});
