// `npm run bench` → the TypeScript bench runner (tsx). Pass --quick for a one-minute run.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const r = spawnSync(
  path.join(root, 'node_modules/.bin/tsx'),
  [path.join(root, 'bench/src/main.ts'), ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: root,
  },
);
process.exit(r.status ?? 1);
