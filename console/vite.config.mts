import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/** The console: built into dist/console (served by the API process), unit-tested with Vitest. */
export default defineConfig({
  root,
  plugins: [vue()],
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    // One stylesheet and hashed bundles; no inline module preload polyfill (the CSP forbids inline scripts).
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 2048,
  },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  test: {
    root,
    include: ['test/**/*.test.ts'],
    environment: 'jsdom',
  },
});
