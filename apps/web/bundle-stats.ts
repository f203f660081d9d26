import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** What one built chunk holds: minified bytes per source file (from its source map). */
export interface TChunkStats {
  name: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  bytes: number;
  /** Source file (relative to the repository, node_modules/… for packages) → minified bytes it produced. */
  sources: Record<string, number>;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** Decode one Base64 VLQ segment of a source map ("AAAA" → [0, 0, 0, 0]). */
function decodeSegment(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = B64_INDEX.get(c) ?? 0;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** Minified bytes per source: each mapping segment owns the code up to the next segment on its line. */
function bytesPerSource(code: string, map: { sources: string[]; mappings: string }): Record<string, number> {
  const lines = code.split('\n');
  const out: Record<string, number> = {};
  const add = (key: string, n: number) => {
    if (n > 0) out[key] = (out[key] ?? 0) + n;
  };
  let source = 0;
  map.mappings.split(';').forEach((line, i) => {
    const length = lines[i]?.length ?? 0;
    let column = 0;
    let owner: string | null = null;
    let covered = 0;
    for (const seg of line ? line.split(',') : []) {
      const [dc = 0, ds] = decodeSegment(seg);
      const next = column + dc;
      if (owner === null) add('(unmapped)', next - covered);
      else add(owner, next - covered);
      covered = next;
      column = next;
      if (ds !== undefined) {
        source += ds;
        owner = map.sources[source] ?? '(unmapped)';
      } else owner = '(unmapped)';
    }
    add(owner ?? '(unmapped)', length - covered);
  });
  return out;
}

/** node_modules/.pnpm-free, repository-relative source names: '../../node_modules/antd/es/x.js' → 'node_modules/antd/es/x.js'. */
function tidy(source: string): string {
  const nm = source.lastIndexOf('node_modules/');
  if (nm >= 0) return source.slice(nm);
  return source.replace(/^(\.\.\/)+/, '').replace(/^.*?\/(apps|packages)\//, '$1/');
}

/**
 * The bundle analyser, on demand only: with WEB_BUNDLE_STATS=<file> the build also makes source maps, writes per
 * chunk which source files (packages) it holds and how many minified bytes each produced, and deletes the maps again
 * (they never stay in dist). `node bench/web-size.mjs --modules` uses it.
 */
export function bundleStats(out = process.env.WEB_BUNDLE_STATS): Plugin {
  let outDir = '';
  const maps: string[] = [];
  return {
    name: 'wms-bundle-stats',
    apply: (_config, env) => env.command === 'build' && Boolean(out),
    config: () => ({ build: { sourcemap: 'hidden' } }),
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      const stats: Record<string, TChunkStats> = {};
      for (const [fileName, item] of Object.entries(bundle)) {
        if (item.type !== 'chunk') {
          if (fileName.endsWith('.map')) maps.push(fileName);
          continue;
        }
        const sources: Record<string, number> = {};
        if (item.map) {
          const raw = bytesPerSource(item.code, item.map);
          for (const [k, v] of Object.entries(raw)) sources[tidy(k)] = (sources[tidy(k)] ?? 0) + v;
          maps.push(`${fileName}.map`);
        }
        stats[fileName] = {
          name: item.name,
          isEntry: item.isEntry,
          imports: item.imports,
          dynamicImports: item.dynamicImports,
          bytes: Buffer.byteLength(item.code),
          sources,
        };
      }
      mkdirSync(path.dirname(out!), { recursive: true });
      writeFileSync(out!, JSON.stringify(stats));
    },
    writeBundle() {
      for (const m of maps) rmSync(path.join(outDir, m), { force: true });
    },
  };
}
