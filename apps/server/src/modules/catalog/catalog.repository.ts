import { DEFAULT_CATEGORY_CODE, DEFAULT_CATEGORY_NAME } from '@wms/contracts';
import { and, asc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { allOf, type Executor } from '../../db/client';
import { packaging_materials, product_categories, product_components, products } from '../../db/schema';
import { tenantTable } from '../../db/tenant-table';
import { countAll, orderingOf, pageWindow, searchWhere, type TPageOpts } from '../../platform/listing';
import { findPlatform, platformCodes, providerCodes, providersByIds } from '../partners';

export type TProductRow = typeof products.$inferSelect;
export type TCategoryRow = typeof product_categories.$inferSelect;
export type TPackagingRow = typeof packaging_materials.$inferSelect;

/** The seller-scoped reads and writes of categories and packaging materials (every call limited to one seller). */
const categories = tenantTable(product_categories);
const packaging = tenantTable(packaging_materials);

// ---- categories ----
/** Every seller has the default category 0015; create it on first use (idempotent, safe under concurrency). */
export async function ensureDefaultCategory(tx: Executor, customerId: string): Promise<TCategoryRow> {
  await tx
    .insert(product_categories)
    .values({ customer_id: customerId, code: DEFAULT_CATEGORY_CODE, name: DEFAULT_CATEGORY_NAME['zh-TW'] })
    .onConflictDoNothing({ target: [product_categories.customer_id, product_categories.code] });
  const [row] = await tx
    .select()
    .from(product_categories)
    .where(and(eq(product_categories.customer_id, customerId), eq(product_categories.code, DEFAULT_CATEGORY_CODE)));
  return row!;
}

// Qualified by hand: in a single-table select drizzle renders columns unqualified, which the subquery would capture.
const productCount = sql<number>`(select count(*)::int from products p where p.category_id = "product_categories"."id")`;

export async function listCategories(tx: Executor, customerId: string, q: TPageOpts) {
  const c = product_categories;
  const where = and(eq(c.customer_id, customerId), searchWhere(q.search, [c.code, c.name]));
  const order = orderingOf(q.ordering, { code: c.code, name: c.name, created_at: c.created_at }, 'code', c.id);
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      tx
        .select({ category: c, product_count: productCount })
        .from(c)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => tx.select({ n: countAll }).from(c).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findCategory(tx: Executor, customerId: string, id: string) {
  const [row] = await tx
    .select({ category: product_categories, product_count: productCount })
    .from(product_categories)
    .where(categories.scope(customerId, eq(product_categories.id, id)));
  return row;
}

export async function insertCategory(tx: Executor, values: typeof product_categories.$inferInsert) {
  return categories.insert(tx, values.customer_id, values);
}

export async function updateCategory(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof product_categories.$inferInsert>,
) {
  await categories.update(tx, customerId, id, patch);
}

export async function deleteCategory(tx: Executor, customerId: string, id: string) {
  await categories.remove(tx, customerId, id);
}

// ---- products ----
export const productSelect = {
  product: products,
  category_code: product_categories.code,
  category_name: product_categories.name,
};
export type TProductView = { product: TProductRow; category_code: string | null; category_name: string | null };

export interface TProductFilter {
  type?: string;
  status?: string;
  category_id?: string;
  online_listing?: boolean;
  allow_shipping?: boolean;
  number?: string;
  barcode?: string;
  ids?: string[];
  numbers?: string[];
}

function productWhere(customerId: string, q: TProductFilter & { search?: string }): SQL | undefined {
  const p = products;
  return and(
    eq(p.customer_id, customerId),
    q.type ? eq(p.type, q.type) : undefined,
    q.status ? eq(p.status, q.status) : undefined,
    q.category_id ? eq(p.category_id, q.category_id) : undefined,
    q.online_listing !== undefined ? eq(p.online_listing, q.online_listing) : undefined,
    q.allow_shipping !== undefined ? eq(p.allow_shipping, q.allow_shipping) : undefined,
    q.number ? eq(p.number, q.number) : undefined,
    q.barcode ? eq(p.barcode, q.barcode) : undefined,
    q.ids ? inArray(p.id, q.ids.length ? q.ids : ['00000000-0000-0000-0000-000000000000']) : undefined,
    q.numbers ? inArray(p.number, q.numbers.length ? q.numbers : ['']) : undefined,
    searchWhere(q.search, [p.number, p.name, p.barcode]),
  );
}

function productQuery(tx: Executor, where: SQL | undefined) {
  return tx
    .select(productSelect)
    .from(products)
    .leftJoin(product_categories, eq(product_categories.id, products.category_id))
    .where(where);
}

export async function listProducts(tx: Executor, customerId: string, q: TPageOpts & TProductFilter) {
  const p = products;
  const where = productWhere(customerId, q);
  const order = orderingOf(
    q.ordering,
    {
      number: p.number,
      name: p.name,
      barcode: p.barcode,
      type: p.type,
      status: p.status,
      category_code: product_categories.code,
      selling_price: p.selling_price,
      safety_stock: p.safety_stock,
      created_at: p.created_at,
      updated_at: p.updated_at,
    },
    'number',
    p.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      productQuery(tx, where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => tx.select({ n: countAll }).from(p).where(where),
  ]);
  return { rows: rows as TProductView[], count: Number(total?.n ?? 0) };
}

export async function findProduct(tx: Executor, customerId: string, id: string): Promise<TProductView | undefined> {
  const [row] = await productQuery(tx, productWhere(customerId, { ids: [id] }));
  return row as TProductView | undefined;
}

export async function findProductsByIds(tx: Executor, customerId: string, ids: string[]): Promise<TProductView[]> {
  if (ids.length === 0) return [];
  return (await productQuery(tx, productWhere(customerId, { ids })).orderBy(asc(products.number))) as TProductView[];
}

export async function findProductsByNumbers(tx: Executor, customerId: string, numbers: string[]) {
  if (numbers.length === 0) return [];
  return (await productQuery(tx, productWhere(customerId, { numbers }))) as TProductView[];
}

/** A product by its number or barcode (exact), number first. */
export async function findProductByCode(tx: Executor, customerId: string, code: string) {
  const rows = (await productQuery(
    tx,
    and(eq(products.customer_id, customerId), or(eq(products.number, code), eq(products.barcode, code))),
  ).limit(2)) as TProductView[];
  return rows.find((r) => r.product.number === code) ?? rows[0];
}

/** Another product of this customer with this barcode (barcodes identify a product when scanned). */
export async function findBarcodeOwner(tx: Executor, customerId: string, barcode: string, exceptId?: string) {
  const [row] = await tx
    .select({ id: products.id, number: products.number })
    .from(products)
    .where(
      and(
        eq(products.customer_id, customerId),
        eq(products.barcode, barcode),
        exceptId ? ne(products.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row;
}

export async function insertProduct(tx: Executor, values: typeof products.$inferInsert) {
  const [row] = await tx.insert(products).values(values).returning();
  return row!;
}

export async function updateProduct(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof products.$inferInsert>,
) {
  if (Object.keys(patch).length === 0) return;
  await tx
    .update(products)
    .set(patch)
    .where(and(eq(products.id, id), eq(products.customer_id, customerId)));
}

export async function deleteProducts(tx: Executor, customerId: string, ids: string[]) {
  await tx.delete(products).where(and(inArray(products.id, ids), eq(products.customer_id, customerId)));
}

/** Components of combination products, keyed by the combination's id. */
export async function componentsOf(tx: Executor, customerId: string, productIds: string[]) {
  const out = new Map<
    string,
    Array<{ component_id: string; number: string; name: string; barcode: string | null; quantity: number }>
  >();
  if (productIds.length === 0) return out;
  const rows = await tx
    .select({
      product_id: product_components.product_id,
      component_id: product_components.component_id,
      number: products.number,
      name: products.name,
      barcode: products.barcode,
      quantity: product_components.quantity,
    })
    .from(product_components)
    .innerJoin(products, eq(products.id, product_components.component_id))
    .where(and(eq(product_components.customer_id, customerId), inArray(product_components.product_id, productIds)))
    .orderBy(asc(products.number));
  for (const { product_id, ...c } of rows) {
    const list = out.get(product_id) ?? [];
    list.push(c);
    out.set(product_id, list);
  }
  return out;
}

export async function replaceComponents(
  tx: Executor,
  customerId: string,
  productId: string,
  components: Array<{ component_id: string; quantity: number }>,
) {
  await tx.delete(product_components).where(eq(product_components.product_id, productId));
  if (components.length === 0) return;
  await tx
    .insert(product_components)
    .values(components.map((c) => ({ customer_id: customerId, product_id: productId, ...c })));
}

/** Combinations that list this product as a component. */
export async function combinationsUsing(tx: Executor, productId: string) {
  return tx
    .select({ product_id: product_components.product_id })
    .from(product_components)
    .where(eq(product_components.component_id, productId));
}

/** Whether the seller has this logistics provider (the partners module's read model). */
export async function providerExists(tx: Executor, customerId: string, id: string) {
  return (await providersByIds(tx, customerId, [id])).length > 0;
}

/** Whether the seller has this e-commerce platform (the partners module's read model). */
export async function platformExists(tx: Executor, customerId: string, id: string) {
  return !!(await findPlatform(tx, customerId, id));
}

/** Code → id maps for imports and batch changes (one query each). */
export async function referenceMaps(tx: Executor, customerId: string) {
  const [cats, provs, plats] = await allOf(tx, [
    () =>
      tx
        .select({ id: product_categories.id, code: product_categories.code })
        .from(product_categories)
        .where(eq(product_categories.customer_id, customerId)),
    () => providerCodes(tx, customerId),
    () => platformCodes(tx, customerId),
  ]);
  return {
    categories: new Map(cats.map((c) => [c.code, c.id])),
    providers: new Map(provs.map((c) => [c.code, c.id])),
    platforms: new Map(plats.map((c) => [c.code, c.id])),
    categoryCodes: new Map(cats.map((c) => [c.id, c.code])),
    providerCodes: new Map(provs.map((c) => [c.id, c.code])),
    platformCodes: new Map(plats.map((c) => [c.id, c.code])),
  };
}

// ---- packaging materials ----
export async function listPackaging(tx: Executor, customerId: string, q: TPageOpts & { category?: string }) {
  const m = packaging_materials;
  const where = and(
    eq(m.customer_id, customerId),
    q.category ? eq(m.category, q.category) : undefined,
    searchWhere(q.search, [m.code, m.name, m.category]),
  );
  const order = orderingOf(
    q.ordering,
    { code: m.code, name: m.name, category: m.category, quantity: m.quantity, created_at: m.created_at },
    'code',
    m.id,
  );
  const { limit, offset } = pageWindow(q);
  const [rows, [total]] = await allOf(tx, [
    () =>
      tx
        .select()
        .from(m)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset),
    () => tx.select({ n: countAll }).from(m).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

export async function findPackaging(tx: Executor, customerId: string, id: string) {
  return packaging.get(tx, customerId, id);
}

export async function findPackagingByIds(tx: Executor, customerId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return tx
    .select()
    .from(packaging_materials)
    .where(packaging.scope(customerId, inArray(packaging_materials.id, ids)))
    .orderBy(asc(packaging_materials.code));
}

export async function insertPackaging(tx: Executor, values: typeof packaging_materials.$inferInsert) {
  return packaging.insert(tx, values.customer_id, values);
}

export async function updatePackaging(
  tx: Executor,
  customerId: string,
  id: string,
  patch: Partial<typeof packaging_materials.$inferInsert>,
) {
  return packaging.update(tx, customerId, id, patch);
}

export async function deletePackaging(tx: Executor, customerId: string, id: string) {
  await packaging.remove(tx, customerId, id);
}

/** A product's online-store fields (listed or not, its price there). */
export async function updateProductListing(
  ex: Executor,
  customerId: string,
  id: string,
  values: { online_listing: boolean; selling_price: string | null },
): Promise<void> {
  await ex
    .update(products)
    .set(values)
    .where(and(eq(products.customer_id, customerId), eq(products.id, id)));
}
