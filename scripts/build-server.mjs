// `npm run build:server`: the server compiled to JavaScript in apps/server/dist, started as `node apps/server/dist/main.js`.
// esbuild bundles our own code and the @wms/contracts workspace package (TypeScript sources) into a few ES modules;
// every package from node_modules stays an import (installed with `npm ci --omit=dev` next to the build). The layout
// is flat on purpose — code that finds files next to itself finds them in dist/ as in src/:
//   dist/main.js          the server            dist/migrate.js       apply migrations, then exit
//   dist/sheet-worker.js  upload-parsing worker thread (started by main.js from this file next to it)
//   dist/check-stock.js   `check:stock` CLI     dist/migrations/      the SQL migrations (db/client.ts reads them)
// Type checking stays `npm run typecheck` (esbuild only strips types).
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const server = path.join(root, 'apps/server');
// An other output directory as the first argument (the compiled-build test builds into apps/server/.tmp/…).
const out = path.resolve(process.argv[2] ?? path.join(server, 'dist'));
const pkg = JSON.parse(readFileSync(path.join(server, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies)
  .filter((name) => !name.startsWith('@wms/'))
  .flatMap((name) => [name, `${name}/*`]);

const started = Date.now();
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: {
    main: path.join(server, 'src/main.ts'),
    migrate: path.join(server, 'src/cli/migrate.ts'),
    'check-stock': path.join(server, 'src/cli/check-stock.ts'),
    'sheet-worker': path.join(server, 'src/platform/sheet-worker.ts'),
  },
  outdir: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  external,
  sourcemap: true,
  logLevel: 'warning',
  // Bundled dependencies of @wms/contracts are ES modules; a `require` in a CommonJS one would need this.
  banner: {
    js: "import { createRequire as __wmsCreateRequire } from 'node:module'; const require = __wmsCreateRequire(import.meta.url);",
  },
});
cpSync(path.join(server, 'src/db/migrations'), path.join(out, 'migrations'), { recursive: true });
console.log(`server built in ${Date.now() - started} ms: ${path.relative(root, out)}/main.js`);
