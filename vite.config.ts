// Builds the renderer (renderer/ → dist/renderer/) with relative asset paths, so the same build is
// served by the Electron app:// protocol and by the local web host.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    // No inline module-preload polyfill script: the CSP allows scripts from the app only.
    modulePreload: { polyfill: false },
  },
});
