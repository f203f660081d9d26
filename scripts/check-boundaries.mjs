// `npm run check:boundaries` (a step of `npm test`): the boundary rules of .dependency-cruiser.cjs — a server module
// imports another only through its index.ts, drizzle-orm only in *.repository.ts / *.schema.ts / src/db/, no import
// loops in server, web and bench — checked against scripts/boundaries-baseline.json, the violations that existed when
// the rules came in. The baseline may only shrink: a violation not in it fails the check (and is printed with what to
// do), and so does a baseline entry that no longer occurs (delete that line, or run with --prune to drop every such
// entry). New violations are never added by the script: an entry written into the baseline by hand shows in review.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOTS = ['apps/server/src', 'apps/web/src', 'bench/src'];

/** One line per violation, stable across runs: `rule: from -> to` (a package as its name, a loop as its ring). */
export function violationKey(v) {
  const to = v.to.replace(/^(.*\/)?node_modules\/((@[^/]+\/)?[^/]+)\/.*$/, '$2');
  if (v.cycle?.length) {
    const ring = [v.from, ...v.cycle.map((c) => (typeof c === 'string' ? c : c.name))];
    return `${v.rule.name}: ${ring.join(' -> ')}`;
  }
  return `${v.rule.name}: ${v.from} -> ${to}`;
}

/**
 * Cruise `roots` under `cwd` with the rules of `config` and compare with the baseline: answers the violations that
 * are new (not in the baseline) and the baseline entries that no longer occur.
 */
export async function checkBoundaries({
  cwd = REPO,
  roots = ROOTS,
  config = path.join(REPO, '.dependency-cruiser.cjs'),
  baseline = path.join(REPO, 'scripts/boundaries-baseline.json'),
} = {}) {
  const { forbidden, options } = createRequire(import.meta.url)(config);
  const existing = roots.filter((r) => existsSync(path.join(cwd, r)));
  const result = await cruise(existing, { ...options, baseDir: cwd, ruleSet: { forbidden }, validate: true });
  const found = [...new Set((result.output.summary.violations ?? []).map(violationKey))].sort();
  const known = JSON.parse(readFileSync(baseline, 'utf8')).violations;
  const knownSet = new Set(known);
  const foundSet = new Set(found);
  const comments = new Map(forbidden.map((r) => [r.name, r.comment]));
  return {
    found,
    known,
    added: found.filter((k) => !knownSet.has(k)),
    gone: known.filter((k) => !foundSet.has(k)),
    comments,
    modules: result.output.summary.totalCruised,
  };
}

async function main() {
  const prune = process.argv.includes('--prune');
  const baseline = path.join(REPO, 'scripts/boundaries-baseline.json');
  const t0 = Date.now();
  const r = await checkBoundaries({ baseline });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if (prune && r.gone.length) {
    const data = JSON.parse(readFileSync(baseline, 'utf8'));
    data.violations = r.known.filter((k) => !r.gone.includes(k));
    writeFileSync(baseline, `${JSON.stringify(data, null, 2)}\n`);
    console.log(`boundaries: ${r.gone.length} fixed entries dropped from the baseline`);
    r.gone = [];
  }
  for (const k of r.added) {
    const rule = k.slice(0, k.indexOf(':'));
    console.error(`✗ new boundary violation  ${k}\n    ${r.comments.get(rule) ?? ''}`);
  }
  if (r.gone.length) {
    console.error(
      `✗ ${r.gone.length} baseline entries no longer occur (fixed: remove them from scripts/boundaries-baseline.json, ` +
        'or run `npm run check:boundaries -- --prune`):',
    );
    for (const k of r.gone) console.error(`    ${k}`);
  }
  const ok = r.added.length === 0 && r.gone.length === 0;
  console.log(
    `boundaries: ${r.modules} files, ${r.found.length} violations (baseline ${r.known.length}), ` +
      `${r.added.length} new, ${r.gone.length} gone — ${ok ? 'ok' : 'FAILED'} in ${seconds}s`,
  );
  process.exit(ok ? 0 : 1);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
