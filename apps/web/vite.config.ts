import { writeFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { bundleStats } from './bundle-stats.ts';

const BUILD_ID = process.env.BUILD_ID ?? `${Date.now().toString(36)}`;

/**
 * Write build.json into the build's output directory (dist/ unless `--outDir` says otherwise) so the server can tell
 * the app which build is current ('system needs update'). A build into another directory leaves dist/ alone.
 */
function buildInfo(): Plugin {
  let outDir = path.resolve(import.meta.dirname, 'dist');
  return {
    name: 'wms-build-info',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      writeFileSync(path.join(outDir, 'build.json'), JSON.stringify({ build_id: BUILD_ID }));
    },
  };
}

/**
 * antd imports its Tooltip for optional props: ConfigProvider (`tooltip.unique`), Segmented (`options[].tooltip`) and
 * the Form label (`tooltip`), so every page would load the Tooltip and its popup machinery (~15 kB gzip), though no
 * public page shows a tooltip. Those three imports get lazy stand-ins that load the real one when one renders.
 */
function lazyAntdTooltip(): Plugin {
  const importers = /node_modules\/antd\/es\/(config-provider\/index|segmented\/index|form\/FormItemLabel)\.js$/;
  const standIns: Record<string, string> = {
    '../tooltip': path.resolve(import.meta.dirname, 'src/shared/ui/lazy-tooltip.tsx'),
    '../tooltip/UniqueProvider': path.resolve(import.meta.dirname, 'src/shared/ui/lazy-tooltip-unique.tsx'),
  };
  return {
    name: 'wms-lazy-antd-tooltip',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !importers.test(importer.replaceAll('\\', '/'))) return null;
      return standIns[source] ?? null;
    },
  };
}

export default defineConfig({
  plugins: [lazyAntdTooltip(), react(), buildInfo(), bundleStats()],
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
