import { writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { bundleStats } from './bundle-stats.ts';

const BUILD_ID = process.env.BUILD_ID ?? `${Date.now().toString(36)}`;

/** Write dist/build.json so the server can tell the app which build is current ('system needs update'). */
function buildInfo(): Plugin {
  return {
    name: 'wms-build-info',
    apply: 'build',
    closeBundle() {
      writeFileSync(path.resolve(import.meta.dirname, 'dist/build.json'), JSON.stringify({ build_id: BUILD_ID }));
    },
  };
}

export default defineConfig({
  plugins: [react(), buildInfo(), bundleStats()],
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  // Every `zod` import gets zod configured first (src/zod-config.ts re-exports it after z.config).
  resolve: { alias: [{ find: /^zod$/, replacement: path.resolve(import.meta.dirname, 'src/zod-config.ts') }] },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    // The contracts only declare schemas and tables: let unused ones drop out, so a page (the login page above all)
    // carries only the contracts it uses, however many contexts the package grows.
    rollupOptions: { treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/contracts/') } },
  },
});
