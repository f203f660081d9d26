// Codemod: server tests' hand-written `/api/…` calls → the typed route client (`ctx.api.<table>.<name>({ … })`).
// Run: `npx tsx scripts/codemod-route-client.ts <test files…>`. It rewrites `X.inject({ method: 'M', url: '…', … })`
// and calls of local helpers that are one `X.inject({ … })` (method/url/token/lang/payload parameters); anything
// else (other inject options, a method or URL not known at the call) is left as it is. Re-runnable.
import { readFileSync, writeFileSync } from 'node:fs';
import * as contracts from '@wms/contracts';
import ts from 'typescript';

type TRoute = { table: string; name: string; method: string; path: string };
const routes: TRoute[] = [];
for (const [table, value] of Object.entries(contracts)) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
  for (const [name, r] of Object.entries(value as Record<string, { method?: unknown; path?: unknown }>)) {
    if (r && typeof r.method === 'string' && typeof r.path === 'string' && 'auth' in r)
      routes.push({ table, name, method: r.method, path: r.path });
  }
}

/** A URL as pieces: literal text and `${expr}` holes (expression source text). */
type TPiece = { lit: string } | { expr: string };
function urlPieces(node: ts.Expression, sf: ts.SourceFile): TPiece[] | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [{ lit: node.text }];
  if (ts.isTemplateExpression(node)) {
    const out: TPiece[] = [{ lit: node.head.text }];
    for (const span of node.templateSpans) {
      out.push({ expr: span.expression.getText(sf) });
      out.push({ lit: span.literal.text });
    }
    return out;
  }
  return null;
}

/** Split the pieces at the first `?` into path segments and query pairs; each value literal or expression. */
function matchRoute(method: string, pieces: TPiece[]) {
  const pathPieces: TPiece[] = [];
  const queryPieces: TPiece[] = [];
  let inQuery = false;
  for (const p of pieces) {
    if (!inQuery && 'lit' in p && p.lit.includes('?')) {
      const i = p.lit.indexOf('?');
      pathPieces.push({ lit: p.lit.slice(0, i) });
      queryPieces.push({ lit: p.lit.slice(i + 1) });
      inQuery = true;
    } else (inQuery ? queryPieces : pathPieces).push(p);
  }
  // Path segments: each one literal or exactly one expression.
  const segs: Array<{ lit: string } | { expr: string } | null> = [];
  let cur: TPiece[] = [];
  const flush = () => {
    if (cur.length === 1) segs.push(cur[0]!);
    else if (cur.length === 0) segs.push({ lit: '' });
    else segs.push(null);
    cur = [];
  };
  for (const p of pathPieces) {
    if ('expr' in p) {
      cur.push(p);
      continue;
    }
    const parts = p.lit.split('/');
    parts.forEach((part, i) => {
      if (i > 0) flush();
      if (part) cur.push({ lit: part });
    });
  }
  flush();
  if (segs.some((s) => s === null)) return null;
  let best: { route: TRoute; params: Record<string, string>; score: number } | null = null;
  for (const r of routes) {
    if (r.method !== method) continue;
    const rs = r.path.split('/');
    if (rs.length !== segs.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let ok = true;
    rs.forEach((part, i) => {
      const s = segs[i]!;
      if (part.startsWith(':')) params[part.slice(1)] = 'expr' in s ? s.expr : JSON.stringify(s.lit);
      else if ('lit' in s && s.lit === part) score++;
      else ok = false;
    });
    if (ok && (!best || score > best.score)) best = { route: r, params, score };
  }
  if (!best) return null;
  // Query: `a=1&b=${x}` → { a: '1', b: x }.
  const query: Record<string, string> = {};
  const text = queryPieces.map((p) => ('lit' in p ? p.lit : `\uE000${p.expr}\uE000`)).join('');
  if (text) {
    for (const pair of text.split('&')) {
      if (!pair) continue;
      const eq = pair.indexOf('=');
      if (eq < 0 || pair.slice(0, eq).includes('\uE000')) return null;
      const key = decodeURIComponent(pair.slice(0, eq));
      const raw = pair.slice(eq + 1);
      const m = /^\uE000(.*)\uE000$/s.exec(raw);
      if (m && !m[1]!.includes('\uE000')) {
        const enc = /^encodeURIComponent\((.*)\)$/s.exec(m[1]!);
        query[key] = enc ? enc[1]! : m[1]!;
      } else if (!raw.includes('\uE000')) query[key] = JSON.stringify(decodeURIComponent(raw.replace(/\+/g, ' ')));
      else return null;
    }
  }
  return { route: best.route, params: best.params, query };
}

/** What an inject literal says: each role as the expression that gives it. */
type TRoles = {
  method?: ts.Expression;
  url?: ts.Expression;
  token?: ts.Expression;
  lang?: ts.Expression;
  payload?: ts.Expression;
  spread?: ts.Expression;
};
const ROLE_NAMES = ['method', 'url', 'token', 'lang', 'payload'] as const;
function injectRoles(obj: ts.ObjectLiteralExpression): TRoles | null {
  const roles: TRoles = {};
  for (const p of obj.properties) {
    if (ts.isShorthandPropertyAssignment(p)) {
      const n = p.name.text as (typeof ROLE_NAMES)[number];
      if (!ROLE_NAMES.includes(n)) return null;
      roles[n] = p.name;
    } else if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) {
      const n = p.name.text as (typeof ROLE_NAMES)[number];
      if (!ROLE_NAMES.includes(n)) return null;
      let init = p.initializer;
      while (ts.isAsExpression(init) || ts.isParenthesizedExpression(init)) init = init.expression;
      roles[n] = init;
    } else if (ts.isSpreadAssignment(p)) {
      const e = p.expression;
      // `...(x ? { payload: x as object } : {})` / `...(x !== undefined ? …)` / `...(t ? { token: t } : {})`
      if (ts.isParenthesizedExpression(e) && ts.isConditionalExpression(e.expression)) {
        const whenTrue = e.expression.whenTrue;
        if (!ts.isObjectLiteralExpression(whenTrue) || whenTrue.properties.length !== 1) return null;
        const inner = injectRoles(whenTrue);
        if (!inner) return null;
        if (inner.payload) roles.payload = inner.payload;
        else if (inner.token) roles.token = inner.token;
        else if (inner.lang) roles.lang = inner.lang;
        else return null;
      } else if (ts.isIdentifier(e)) roles.spread = e;
      else return null;
    } else return null;
  }
  return roles;
}

/** Source text of `node` with the helper's parameters replaced by the call's arguments. */
function substituted(node: ts.Node, sf: ts.SourceFile, args: Map<string, string> | null): string {
  const full = node.getText(sf);
  if (!args) return full;
  const start = node.getStart(sf);
  const edits: Array<{ s: number; e: number; t: string }> = [];
  const wrap = (a: string) => (/^[\w.!]+$|^'[^']*'$|^"[^"]*"$/.test(a) ? a : `(${a})`);
  const visit = (n: ts.Node) => {
    if (ts.isShorthandPropertyAssignment(n) && args.has(n.name.text)) {
      if (n !== node.parent)
        edits.push({ s: n.getStart(sf), e: n.getEnd(), t: `${n.name.text}: ${args.get(n.name.text)}` });
      return;
    }
    if (ts.isIdentifier(n) && args.has(n.text)) {
      const p = n.parent;
      const isName =
        (p && ts.isPropertyAccessExpression(p) && p.name === n) || (p && ts.isPropertyAssignment(p) && p.name === n);
      if (!isName)
        edits.push({ s: n.getStart(sf), e: n.getEnd(), t: n === node ? args.get(n.text)! : wrap(args.get(n.text)!) });
    }
    ts.forEachChild(n, visit);
  };
  if (ts.isIdentifier(node)) return args.get(node.text) ?? full;
  visit(node);
  let out = full;
  for (const e of edits.sort((a, b) => b.s - a.s)) out = out.slice(0, e.s - start) + e.t + out.slice(e.e - start);
  return out;
}

function injectCall(node: ts.Node): { receiver: string; obj: ts.ObjectLiteralExpression } | null {
  if (!ts.isCallExpression(node) || node.arguments.length !== 1) return null;
  const callee = node.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'inject') return null;
  const arg = node.arguments[0]!;
  if (!ts.isObjectLiteralExpression(arg)) return null;
  return { receiver: callee.expression.getText(), obj: arg };
}

type THelper = { receiver: string; roles: TRoles; params: Array<{ name: string; init?: string }>; decl: ts.Node };

function convertFile(file: string): number {
  const src = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, true);
  const helpers = new Map<string, THelper>();
  // Local helpers: `const NAME = (…) => X.inject({ … })`.
  const findHelpers = (n: ts.Node) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isArrowFunction(n.initializer)) {
      const fn = n.initializer;
      const inj = injectCall(fn.body);
      if (inj) {
        const roles = injectRoles(inj.obj);
        const params = fn.parameters.map((p) => ({
          name: p.name.getText(sf),
          init: p.initializer?.getText(sf),
        }));
        if (roles && params.every((p) => /^\w+$/.test(p.name)))
          helpers.set(n.name.text, { receiver: inj.receiver, roles, params, decl: n });
      }
    }
    ts.forEachChild(n, findHelpers);
  };
  findHelpers(sf);

  const edits: Array<{ start: number; end: number; text: string }> = [];
  type TTexts = { token?: string; lang?: string; payload?: string; spread?: string };
  const build = (receiver: string, method: string | undefined, url: string | undefined, r: TTexts) => {
    if (!method || !/^'(GET|POST|PUT|PATCH|DELETE)'$/.test(method) || !url) return null;
    const e = ts.createSourceFile('x.ts', `(${url})`, ts.ScriptTarget.Latest, true).statements[0];
    if (!e || !ts.isExpressionStatement(e)) return null;
    const inner = (e.expression as ts.ParenthesizedExpression).expression;
    const pieces = urlPieces(inner, inner.getSourceFile());
    if (!pieces) return null;
    const m = matchRoute(method.slice(1, -1), pieces);
    if (!m) return null;
    const parts: string[] = [];
    const obj = (o: Record<string, string>) =>
      `{ ${Object.entries(o)
        .map(([k, v]) => (/^[a-zA-Z_]\w*$/.test(k) ? (k === v ? k : `${k}: ${v}`) : `${JSON.stringify(k)}: ${v}`))
        .join(', ')} }`;
    if (Object.keys(m.params).length) parts.push(`params: ${obj(m.params)}`);
    if (Object.keys(m.query).length) parts.push(`query: ${obj(m.query)}`);
    if (r.payload && r.payload !== 'undefined') parts.push(r.payload === 'body' ? 'body' : `body: ${r.payload}`);
    if (r.token && r.token !== 'undefined') parts.push(r.token === 'token' ? 'token' : `token: ${r.token}`);
    if (r.lang && r.lang !== 'undefined') parts.push(r.lang === 'lang' ? 'lang' : `lang: ${r.lang}`);
    if (r.spread && r.spread !== 'undefined') {
      // `...{}` (a helper's default) adds nothing; `...{ lang: 'en' }` is written out.
      const literal = /^\(?\{([\s\S]*)\}\)?$/.exec(r.spread.trim());
      if (!literal) parts.push(`...${r.spread}`);
      else if (literal[1]!.trim()) parts.push(literal[1]!.trim().replace(/,$/, ''));
    }
    return `${receiver}.api.${m.route.table}.${m.route.name}(${parts.length ? `{ ${parts.join(', ')} }` : ''})`;
  };

  const visit = (n: ts.Node) => {
    const texts = (r: TRoles, args: Map<string, string> | null) => {
      const t = (x: ts.Node | undefined) => (x ? substituted(x, sf, args) : undefined);
      return {
        method: t(r.method),
        url: t(r.url),
        token: t(r.token),
        lang: t(r.lang),
        payload: t(r.payload),
        spread: t(r.spread),
      };
    };
    const inj = injectCall(n);
    if (inj && !ts.isArrowFunction(n.parent)) {
      const roles = injectRoles(inj.obj);
      if (roles) {
        const x = texts(roles, null);
        const text = build(inj.receiver, x.method, x.url, x);
        if (text) {
          edits.push({ start: n.getStart(sf), end: n.getEnd(), text });
          return;
        }
      }
    }
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && helpers.has(n.expression.text)) {
      const h = helpers.get(n.expression.text)!;
      const args = new Map<string, string>();
      h.params.forEach((p, i) => {
        const a = n.arguments[i];
        args.set(p.name, a ? a.getText(sf) : (p.init ?? 'undefined'));
      });
      const x = texts(h.roles, args);
      if (x.spread && !/^[\w.]+$/.test(x.spread)) x.spread = `(${x.spread})`;
      const text = n.arguments.every((a) => !ts.isSpreadElement(a)) ? build(h.receiver, x.method, x.url, x) : null;
      if (text) {
        edits.push({ start: n.getStart(sf), end: n.getEnd(), text });
        return;
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (!edits.length) return 0;
  let out = src;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  // `.json().error.` / `.json().error)` → `.error().` : the error body has its own typed accessor.
  out = out.replace(/\.json\(\)\.error\b/g, '.error()');
  // Helpers no longer called: removed with their declaration statement.
  for (const [name, h] of helpers) {
    const uses = out.match(new RegExp(`\\b${name}\\b`, 'g'))?.length ?? 0;
    if (uses === 1) {
      const stmt = h.decl.parent.parent;
      const text = stmt.getFullText(sf);
      out = out.replace(text, '');
    }
  }
  writeFileSync(file, out);
  return edits.length;
}

let total = 0;
for (const f of process.argv.slice(2)) {
  const n = convertFile(f);
  total += n;
  if (n) console.log(`${f}: ${n}`);
}
console.log(`converted ${total} calls`);
