import { catalogRoutes as r, type TProduct } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { boolCell, sendXlsx, type TCellValue, type TSheetColumn, writeWorkbook } from '../warehouse/excel';
import * as service from './catalog.service';

const CATEGORY_COLUMNS: TSheetColumn[] = [{ key: 'code' }, { key: 'name', width: 24 }, { key: 'product_count' }];
const PACKAGING_COLUMNS: TSheetColumn[] = [
  { key: 'code' },
  { key: 'name', width: 24 },
  { key: 'category' },
  { key: 'quantity' },
];

/** Product columns of the export, the import template and batch-change files (same layout for all three). */
export const PRODUCT_COLUMNS: TSheetColumn[] = [
  { key: 'number', required: true, note: 'A-Z a-z 0-9 _ - . /' },
  { key: 'name', required: true, width: 30 },
  { key: 'barcode', width: 18, note: 'EAN-13 / UPC-A / EAN-8 (check digit verified) or Code128 text' },
  { key: 'type', note: 'single | combination' },
  { key: 'category', note: 'category code, e.g. 0015' },
  { key: 'components', width: 30, note: 'combination only: NUMBER*QTY, NUMBER*QTY (e.g. A001*2, B002*1)' },
  { key: 'unit' },
  { key: 'unit_price' },
  { key: 'selling_price' },
  { key: 'cost' },
  { key: 'weight' },
  { key: 'weight_unit', note: 'g | kg' },
  { key: 'length_cm' },
  { key: 'width_cm' },
  { key: 'height_cm' },
  { key: 'volume_required', note: 'Y | N' },
  { key: 'fragile', note: 'Y | N' },
  { key: 'can_pack_together', note: 'Y | N' },
  { key: 'safety_stock' },
  { key: 'stocking_days' },
  { key: 'shelf_life_months', note: '1-12' },
  { key: 'sellable_rule_months', note: '1-12, less than shelf life' },
  { key: 'allowed_sale_date', note: 'YYYY-MM-DD' },
  { key: 'allow_shipping', note: 'Y | N' },
  { key: 'online_listing', note: 'Y | N' },
  { key: 'status', note: 'active | inactive' },
  { key: 'default_logistics_provider', note: 'logistics provider code' },
  { key: 'default_platform', note: 'e-commerce platform code' },
];

export function productSheetRow(
  p: TProduct,
  codes: { providers: Map<string, string>; platforms: Map<string, string> },
): Record<string, TCellValue> {
  return {
    number: p.number,
    name: p.name,
    barcode: p.barcode,
    type: p.type,
    category: p.category_code,
    components: p.components.map((c) => `${c.number}*${c.quantity}`).join(', ') || null,
    unit: p.unit || null,
    unit_price: p.unit_price,
    selling_price: p.selling_price,
    cost: p.cost,
    weight: p.weight,
    weight_unit: p.weight_unit,
    length_cm: p.length_cm,
    width_cm: p.width_cm,
    height_cm: p.height_cm,
    volume_required: boolCell(p.volume_required),
    fragile: boolCell(p.fragile),
    can_pack_together: boolCell(p.can_pack_together),
    safety_stock: p.safety_stock,
    stocking_days: p.stocking_days,
    shelf_life_months: p.shelf_life_months,
    sellable_rule_months: p.sellable_rule_months,
    allowed_sale_date: p.allowed_sale_date,
    allow_shipping: boolCell(p.allow_shipping),
    online_listing: boolCell(p.online_listing),
    status: p.status,
    default_logistics_provider: p.default_logistics_provider_id
      ? (codes.providers.get(p.default_logistics_provider_id) ?? null)
      : null,
    default_platform: p.default_platform_id ? (codes.platforms.get(p.default_platform_id) ?? null) : null,
  };
}

export function registerCatalogRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db };
  const t = deps.tokens;

  route(app, t, r.listProductCategories, ({ actor, query }) => service.listCategories(d, actor, query));
  route(app, t, r.exportProductCategories, async ({ actor, query, lang, reply }) => {
    const rows = await service.exportCategories(d, actor, query);
    return sendXlsx(reply, 'product-categories.xlsx', await writeWorkbook('categories', CATEGORY_COLUMNS, rows, lang));
  });
  route(app, t, r.createProductCategory, ({ actor, body }) => service.createCategory(d, actor, body), { status: 201 });
  route(app, t, r.getProductCategory, ({ actor, params }) => service.getCategory(d, actor, params.id));
  route(app, t, r.updateProductCategory, ({ actor, params, body }) =>
    service.updateCategory(d, actor, params.id, body),
  );
  route(app, t, r.deleteProductCategory, ({ actor, params }) => service.deleteCategory(d, actor, params.id));

  route(app, t, r.listProducts, ({ actor, query }) => service.listProducts(d, actor, query));
  route(app, t, r.lookupProduct, ({ actor, query }) => service.lookupProduct(d, actor, query.code));
  route(app, t, r.exportProducts, async ({ actor, query, lang, reply }) => {
    const { rows, codes } = await service.exportProductsWithCodes(d, actor, query);
    const sheet = rows.map((p) => productSheetRow(p, codes));
    return sendXlsx(reply, 'products.xlsx', await writeWorkbook('products', PRODUCT_COLUMNS, sheet, lang));
  });
  route(app, t, r.createProduct, ({ actor, body }) => service.createProduct(d, actor, body), { status: 201 });
  route(app, t, r.getProduct, ({ actor, params }) => service.getProduct(d, actor, params.id));
  route(app, t, r.updateProduct, ({ actor, params, body }) => service.updateProduct(d, actor, params.id, body));
  route(app, t, r.deleteProduct, async ({ actor, params }) => {
    await service.deleteProducts(d, actor, [params.id]);
    return { ok: true as const };
  });
  route(app, t, r.bulkDeleteProducts, ({ actor, body }) => service.deleteProducts(d, actor, body.ids));

  route(app, t, r.listPackagingMaterials, ({ actor, query }) => service.listPackaging(d, actor, query));
  route(app, t, r.exportPackagingMaterials, async ({ actor, query, lang, reply }) => {
    const rows = await service.exportPackaging(d, actor, query);
    return sendXlsx(reply, 'packaging.xlsx', await writeWorkbook('packaging', PACKAGING_COLUMNS, rows, lang));
  });
  route(app, t, r.createPackagingMaterial, ({ actor, body }) => service.createPackaging(d, actor, body), {
    status: 201,
  });
  route(app, t, r.getPackagingMaterial, ({ actor, params }) => service.getPackaging(d, actor, params.id));
  route(app, t, r.updatePackagingMaterial, ({ actor, params, body }) =>
    service.updatePackaging(d, actor, params.id, body),
  );
  route(app, t, r.deletePackagingMaterial, ({ actor, params }) => service.deletePackaging(d, actor, params.id));
}
