// Builds the renderer into <repo>/dist/renderer. base './' because Electron loads the page from
// file:// and browser mode serves it under any port; nothing may load from the network.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
export const aliases = {
  '@model': fileURLToPath(new URL('../app/src/model', import.meta.url)),
  '@ipc': fileURLToPath(new URL('../app/src/ipc', import.meta.url)),
};

export default defineConfig({
  root: here,
  base: './',
  plugins: [react()],
  // The renderer reaches the shared model and the IPC contract by name, never by ../../../../app/src.
  resolve: { alias: aliases },
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // The CSP forbids inline scripts: keep Vite from inlining the module-preload helper and
    // small assets as data: URLs in script context.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // recharts alone is over Vite's 500 kB warning; the app is local, size is not latency here.
    chunkSizeWarningLimit: 1500,
  },
});
