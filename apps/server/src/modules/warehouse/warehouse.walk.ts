/**
 * The walking order of a warehouse's storage locations (pick paths, issue #36). A location code is
 * `<shelf>-<layer>-<position>` when generated from a shelf (`locationCode`), the shelf sits in an area; so the walk goes
 * area → shelf → layer → cell, and serpentine by aisle: along every other shelf of an area the cells are walked
 * backwards, so the picker turns at the end of one shelf into the next instead of walking back. Locations outside any
 * shelf come after the area's shelves, by code; locations outside any area after all areas.
 *
 * Derived numbers are 10, 20, 30 … so a sequence set by hand (kept as it is) can fall between two of them.
 */

export interface TWalkLocation {
  id: string;
  code: string;
  area_code: string | null;
  shelf_code: string | null;
  layer: number | null;
  pick_sequence: number;
  pick_sequence_manual: boolean;
}

export const WALK_STEP = 10;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Nulls after every value. */
const cmpNullable = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : cmp(a, b);

/** The cell (position) of a location on its shelf: the last number of its code; null when the code has none. */
export function cellOf(code: string): number | null {
  const m = /(\d+)\D*$/.exec(code);
  return m ? Number(m[1]) : null;
}

/** The layer: the location's own, else the middle number of a `<shelf>-<layer>-<position>` code. */
function layerOf(l: TWalkLocation): number {
  if (l.layer !== null) return l.layer;
  const m = /-(\d+)-\d+$/.exec(l.code);
  return m ? Number(m[1]) : 0;
}

/** The locations in walking order (derived; sequences set by hand are not considered here). */
export function walkOrder<T extends TWalkLocation>(locations: readonly T[]): T[] {
  // A shelf's place among its area's shelves decides its direction.
  const shelvesOf = new Map<string, string[]>();
  for (const l of locations) {
    if (l.shelf_code === null) continue;
    const key = l.area_code ?? '';
    const list = shelvesOf.get(key) ?? [];
    if (!list.includes(l.shelf_code)) list.push(l.shelf_code);
    shelvesOf.set(key, list);
  }
  for (const list of shelvesOf.values()) list.sort(cmp);
  const backwards = (l: T) =>
    l.shelf_code !== null && shelvesOf.get(l.area_code ?? '')!.indexOf(l.shelf_code) % 2 === 1;
  return [...locations].sort((a, b) => {
    const byPlace = cmpNullable(a.area_code, b.area_code) || cmpNullable(a.shelf_code, b.shelf_code);
    if (byPlace) return byPlace;
    if (a.shelf_code === null) return cmp(a.code, b.code);
    const byLayer = layerOf(a) - layerOf(b);
    if (byLayer) return byLayer;
    const ca = cellOf(a.code) ?? 0;
    const cb = cellOf(b.code) ?? 0;
    return (backwards(a) ? cb - ca : ca - cb) || cmp(a.code, b.code);
  });
}

/**
 * The derived sequence of every location not set by hand: 10, 20, … in walking order. Answers only the ones whose
 * number changes.
 */
export function renumberWalk(locations: readonly TWalkLocation[]): Array<{ id: string; pick_sequence: number }> {
  const out: Array<{ id: string; pick_sequence: number }> = [];
  walkOrder(locations).forEach((l, i) => {
    const next = (i + 1) * WALK_STEP;
    if (!l.pick_sequence_manual && l.pick_sequence !== next) out.push({ id: l.id, pick_sequence: next });
  });
  return out;
}
