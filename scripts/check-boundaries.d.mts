export const ROOTS: string[];
export function violationKey(v: { rule: { name: string }; from: string; to: string; cycle?: unknown[] }): string;
export function checkBoundaries(opts?: {
  cwd?: string;
  roots?: string[];
  config?: string;
  baseline?: string;
}): Promise<{
  found: string[];
  known: string[];
  /** Violations not in the baseline. */
  added: string[];
  /** Baseline entries that no longer occur. */
  gone: string[];
  comments: Map<string, string>;
  modules: number;
  /** Rule repository-foreign-table: per entry (`<rule>: <module folder> -> <table> (<owner>)`), the files naming it. */
  where: Map<string, string[]>;
}>;
/** Rule repository-foreign-table of `ownership` (the `tableOwnership` of .dependency-cruiser.cjs) under `cwd`. */
export function checkTableOwnership(
  cwd: string,
  ownership?: { name: string; schema: string; modules: string; owners?: Record<string, string> },
): { rule: string; module: string; from: string; table: string; owner: string }[];
