// `npm run check:boundaries` (second half): tests, e2e and the bench call the API through the typed route client
// (`@wms/contracts/client`: `ctx.api.<table>.<name>({ params, query, body })`), not through hand-written `/api/…`
// paths. The paths written by hand when the client came in are counted per file in scripts/api-paths-baseline.json;
// a file may only go down. A new file with a hand-written path, or a file with more than its count, fails the check.
// `--update` writes the counts as they are now (only ever lower them: review shows the change); `--list` lists the
// paths kept on purpose (`raw-api-path: <why>` on the line or the one above: a test about the URL itself).
// `npx tsx scripts/codemod-route-client.ts <files>` rewrites most such calls of a server test.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BASELINE = path.join(REPO, 'scripts/api-paths-baseline.json');
const ROOTS = [
  { dir: 'apps/server/src', test: (f) => /\.test\.ts$/.test(f) },
  { dir: 'e2e', test: (f) => /\.ts$/.test(f) && !f.includes('node_modules') },
  { dir: 'bench/src', test: (f) => /\.ts$/.test(f) },
];
const PATH = /['"`]\/api\//g;

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/**
 * A path a test writes on purpose because the test is about the URL itself (the router's answer to an unknown path,
 * the API reference showing a path, the service worker's prefix): the line, or the line above it, says so with
 * `raw-api-path: <why>`. Those are listed, not counted.
 */
const KEPT = /raw-api-path:/;

export function countApiPaths() {
  const counts = {};
  const kept = [];
  for (const root of ROOTS) {
    for (const abs of walk(path.join(REPO, root.dir))) {
      const rel = path.relative(REPO, abs);
      if (!root.test(rel)) continue;
      const lines = readFileSync(abs, 'utf8').split('\n');
      let n = 0;
      lines.forEach((line, i) => {
        const found = line.match(PATH)?.length ?? 0;
        if (!found) return;
        if (KEPT.test(line) || KEPT.test(lines[i - 1] ?? '')) kept.push(`${rel}:${i + 1}`);
        else n += found;
      });
      if (n) counts[rel] = n;
    }
  }
  return { counts, kept };
}

const { counts, kept } = countApiPaths();
const total = Object.values(counts).reduce((a, b) => a + b, 0);
if (process.argv.includes('--update')) {
  writeFileSync(BASELINE, `${JSON.stringify({ files: Object.fromEntries(Object.entries(counts).sort()) }, null, 2)}\n`);
  console.log(`api paths: baseline written, ${total} hand-written paths in ${Object.keys(counts).length} files`);
  process.exit(0);
}
const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')).files;
const grown = Object.entries(counts).filter(([f, n]) => n > (baseline[f] ?? 0));
for (const [f, n] of grown)
  console.error(
    `✗ ${f}: ${n} hand-written /api/ paths (baseline ${baseline[f] ?? 0}) — call the route through the typed client ` +
      '(`ctx.api.<table>.<name>`, `@wms/contracts/client`); `npx tsx scripts/codemod-route-client.ts <file>` does most',
  );
const before = Object.values(baseline).reduce((a, b) => a + b, 0);
console.log(
  `api paths: ${total} hand-written /api/ paths in tests, e2e and bench (baseline ${before}); ` +
    `${kept.length} kept on purpose (raw-api-path:)${process.argv.includes('--list') ? `\n  ${kept.join('\n  ')}` : ''}`,
);
process.exit(grown.length ? 1 : 0);
