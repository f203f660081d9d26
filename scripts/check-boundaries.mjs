// `npm run check:boundaries` (a step of `npm test`): the boundary rules of .dependency-cruiser.cjs — a server module
// imports another only through its index.ts, drizzle-orm only in *.repository.ts / *.schema.ts / src/db/, no import
// loops in server, web and bench — checked against scripts/boundaries-baseline.json, the violations that existed when
// the rules came in. The baseline may only shrink: a violation not in it fails the check (and is printed with what to
// do), and so does a baseline entry that no longer occurs (delete that line, or run with --prune to drop every such
// entry). New violations are never added by the script: an entry written into the baseline by hand shows in review.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

const require = createRequire(import.meta.url);

/** The `.ts` files under `dir` (recursively), as paths relative to `cwd`, tests left out. */
function sourceFiles(cwd, dir) {
  const out = [];
  const walk = (rel) => {
    for (const name of readdirSync(path.join(cwd, rel))) {
      const child = `${rel}/${name}`;
      if (statSync(path.join(cwd, child)).isDirectory()) {
        if (name !== '__tests__' && name !== 'node_modules') walk(child);
      } else if (/\.tsx?$/.test(name) && !/\.(test|d)\.tsx?$/.test(name)) out.push(child);
    }
  };
  if (existsSync(path.join(cwd, dir))) walk(dir);
  return out.sort();
}

/**
 * The tables of the schema (`export const x = pgTable('x', …)` in `<schema>/<file>.ts`) with their owning module:
 * the file's name, or `owners[table]`. Keyed by both the table object's name and the table's SQL name.
 */
function tableOwners(cwd, { schema, owners = {} }) {
  const map = new Map();
  const dir = path.join(cwd, schema);
  if (!existsSync(dir)) return map;
  for (const name of readdirSync(dir)) {
    if (!/\.ts$/.test(name) || name === 'index.ts') continue;
    const text = readFileSync(path.join(dir, name), 'utf8');
    for (const m of text.matchAll(/export const (\w+)\s*=\s*pgTable\(\s*['"]([\w]+)['"]/g)) {
      const owner = owners[m[1]] ?? owners[m[2]] ?? name.replace(/\.ts$/, '');
      map.set(m[1], { table: m[2], owner });
      map.set(m[2], { table: m[2], owner });
    }
  }
  return map;
}

/** A table named in SQL text: after from / join / update / into (optionally quoted or schema-qualified). */
const SQL_TABLE = /\b(?:from|join|update|into)\s+(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;

/**
 * Rule `repository-foreign-table` (config `tableOwnership` of .dependency-cruiser.cjs): every file of a server
 * module (tests aside) that names another module's table, by a value import of its table object from the schema
 * (a named import, or a property of a namespace import) or by its name in the text of a string or template literal
 * after from / join / update / into. Answers violations as `{ rule, module, from, table, owner }`.
 */
export function checkTableOwnership(cwd, ownership) {
  if (!ownership) return [];
  const ts = require(require.resolve('typescript', { paths: [cwd, REPO] }));
  const owners = tableOwners(cwd, ownership);
  const schemaDir = path.join(cwd, ownership.schema);
  const isSchema = (file, spec) => {
    if (!spec.startsWith('.')) return false;
    const target = path.resolve(path.dirname(path.join(cwd, file)), spec).replace(/(\/index)?(\.[jt]s)?$/, '');
    return target === schemaDir || path.dirname(target) === schemaDir;
  };
  const found = [];
  for (const file of sourceFiles(cwd, ownership.modules)) {
    const mine = file.slice(ownership.modules.length + 1).split('/')[0];
    if (!file.includes('/', ownership.modules.length + 1 + mine.length)) continue;
    const text = readFileSync(path.join(cwd, file), 'utf8');
    const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const named = new Set();
    const flag = (name) => {
      const t = owners.get(name);
      if (t && t.owner !== mine) named.add(t.table);
    };
    const namespaces = new Set();
    const visit = (node) => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.importClause;
        if (clause && !clause.isTypeOnly && isSchema(file, node.moduleSpecifier.text)) {
          const b = clause.namedBindings;
          if (b && ts.isNamespaceImport(b)) namespaces.add(b.name.text);
          if (b && ts.isNamedImports(b))
            for (const el of b.elements) if (!el.isTypeOnly) flag((el.propertyName ?? el.name).text);
        }
        return;
      }
      if (
        ts.isPropertyAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        namespaces.has(node.expression.text)
      )
        flag(node.name.text);
      if (
        ts.isStringLiteral(node) ||
        ts.isNoSubstitutionTemplateLiteral(node) ||
        ts.isTemplateHead(node) ||
        ts.isTemplateMiddle(node) ||
        ts.isTemplateTail(node)
      )
        for (const m of node.text.matchAll(SQL_TABLE)) flag(m[1]);
      ts.forEachChild(node, visit);
    };
    visit(src);
    for (const table of [...named].sort())
      found.push({
        rule: ownership.name,
        module: `${ownership.modules}/${mine}`,
        from: file,
        table,
        owner: owners.get(table).owner,
      });
  }
  return found;
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
  const { forbidden, options, tableOwnership } = require(config);
  const existing = roots.filter((r) => existsSync(path.join(cwd, r)));
  const result = await cruise(existing, { ...options, baseDir: cwd, ruleSet: { forbidden }, validate: true });
  // A table named by a module is one entry per module (`<rule>: <module folder> -> <table> (<owner>)`), so moving code
  // between a module's files keeps the baseline as it is; the files that name it are printed with a new violation.
  const where = new Map();
  for (const v of checkTableOwnership(cwd, tableOwnership)) {
    const key = `${v.rule}: ${v.module} -> ${v.table} (${v.owner})`;
    where.set(key, [...(where.get(key) ?? []), v.from]);
  }
  const tables = [...where.keys()];
  const found = [...new Set([...(result.output.summary.violations ?? []).map(violationKey), ...tables])].sort();
  const known = JSON.parse(readFileSync(baseline, 'utf8')).violations;
  const knownSet = new Set(known);
  const foundSet = new Set(found);
  const comments = new Map(forbidden.map((r) => [r.name, r.comment]));
  if (tableOwnership) comments.set(tableOwnership.name, tableOwnership.comment);
  return {
    found,
    known,
    added: found.filter((k) => !knownSet.has(k)),
    gone: known.filter((k) => !foundSet.has(k)),
    comments,
    modules: result.output.summary.totalCruised,
    where,
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
    const files = r.where.get(k);
    console.error(`✗ new boundary violation  ${k}${files ? ` (in ${files.join(', ')})` : ''}`);
    console.error(`    ${r.comments.get(rule) ?? ''}`);
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
