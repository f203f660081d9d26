import { catalogRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import { IMPORT_NOTE, queueSheetImport, UPLOAD_BODY_LIMIT } from '../../platform/importing';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import { applyBatchUpdate, previewBatchUpdate } from './catalog.batch';
import * as categories from './catalog.categories';
import { PRODUCT_COLUMNS, productSheetRow } from './catalog.columns';
import { productImport } from './catalog.import';
import * as packaging from './catalog.packaging';
import * as service from './catalog.service';

const CATEGORY_COLUMNS: TSheetColumn[] = [{ key: 'code' }, { key: 'name', width: 24 }, { key: 'product_count' }];
const PACKAGING_COLUMNS: TSheetColumn[] = [
  { key: 'code' },
  { key: 'name', width: 24 },
  { key: 'category' },
  { key: 'quantity' },
];

export function registerCatalogRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, jobs: deps.jobs };
  const t = deps.tokens;

  route(app, t, r.listProductCategories, ({ actor, query }) => categories.listCategories(d, actor, query));
  route(app, t, r.exportProductCategories, async ({ actor, query, lang, reply }) => {
    const rows = await categories.exportCategories(d, actor, query);
    return sendXlsx(reply, 'product-categories.xlsx', await writeWorkbook('categories', CATEGORY_COLUMNS, rows, lang));
  });
  route(app, t, r.createProductCategory, ({ actor, body }) => categories.createCategory(d, actor, body), {
    status: 201,
  });
  route(app, t, r.getProductCategory, ({ actor, params }) => categories.getCategory(d, actor, params.id));
  route(app, t, r.updateProductCategory, ({ actor, params, body }) =>
    categories.updateCategory(d, actor, params.id, body),
  );
  route(app, t, r.deleteProductCategory, ({ actor, params }) => categories.deleteCategory(d, actor, params.id));

  route(app, t, r.listProducts, ({ actor, query }) => service.listProducts(d, actor, query));
  route(app, t, r.lookupProduct, ({ actor, query }) => service.lookupProduct(d, actor, query.code));
  route(app, t, r.exportProducts, async ({ actor, query, lang, reply }) => {
    const { rows, codes } = await service.exportProductsWithCodes(d, actor, query);
    const sheet = rows.map((p) => productSheetRow(p, codes, lang));
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

  route(app, t, r.productImportTemplate, async ({ lang, reply }) =>
    sendXlsx(
      reply,
      'products-template.xlsx',
      await writeWorkbook('products', PRODUCT_COLUMNS, [], lang, [IMPORT_NOTE[lang]]),
    ),
  );
  route(
    app,
    t,
    r.importProducts,
    ({ actor, body, lang }) => queueSheetImport({ db: d.db, jobs: deps.jobs }, actor, productImport, body, lang),
    { status: 202, bodyLimit: UPLOAD_BODY_LIMIT },
  );
  route(app, t, r.previewBatchUpdate, ({ actor, body, lang }) => previewBatchUpdate(d, actor, body, lang), {
    bodyLimit: UPLOAD_BODY_LIMIT,
  });
  route(app, t, r.applyBatchUpdate, ({ actor, body, lang }) => applyBatchUpdate(d, actor, body, lang), {
    bodyLimit: UPLOAD_BODY_LIMIT,
  });

  route(app, t, r.listPackagingMaterials, ({ actor, query }) => packaging.listPackaging(d, actor, query));
  route(app, t, r.exportPackagingMaterials, async ({ actor, query, lang, reply }) => {
    const rows = await packaging.exportPackaging(d, actor, query);
    return sendXlsx(reply, 'packaging.xlsx', await writeWorkbook('packaging', PACKAGING_COLUMNS, rows, lang));
  });
  route(app, t, r.createPackagingMaterial, ({ actor, body }) => packaging.createPackaging(d, actor, body), {
    status: 201,
  });
  route(app, t, r.getPackagingMaterial, ({ actor, params }) => packaging.getPackaging(d, actor, params.id));
  route(app, t, r.updatePackagingMaterial, ({ actor, params, body }) =>
    packaging.updatePackaging(d, actor, params.id, body),
  );
  route(app, t, r.deletePackagingMaterial, ({ actor, params }) => packaging.deletePackaging(d, actor, params.id));
}
