import { PRODUCT_VALUE_LABELS, type TLanguage, type TProduct } from '@wms/contracts';
import { boolCell, type TCell } from '../../platform/cells';
import type { TSheetColumn } from '../../platform/spreadsheet';

/**
 * Product columns of the export, the import template and batch-change files (same layout for all three, so an export
 * imports again as it is).
 */
export const PRODUCT_COLUMNS: TSheetColumn[] = [
  { key: 'number', required: true, text: true, note: 'A-Z a-z 0-9 _ - . /' },
  { key: 'name', required: true, width: 30 },
  { key: 'barcode', width: 18, text: true, note: 'EAN-13 / UPC-A / EAN-8 (check digit verified) or Code128 text' },
  { key: 'type', note: 'single | combination (or their labels in any language)' },
  { key: 'category', text: true, note: 'category code, e.g. 0015' },
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
  { key: 'status', note: 'active | inactive (or their labels in any language)' },
  { key: 'requires_serial', note: 'Y | N' },
  { key: 'default_logistics_provider', note: 'logistics provider code' },
  { key: 'default_platform', note: 'e-commerce platform code' },
];

/** A product as an export row: codes for references, Y/N, type and status in the user's words. */
export function productSheetRow(
  p: TProduct,
  codes: { providers: Map<string, string>; platforms: Map<string, string> },
  lang: TLanguage,
): Record<string, TCell> {
  return {
    number: p.number,
    name: p.name,
    barcode: p.barcode,
    type: PRODUCT_VALUE_LABELS.type[p.type][lang],
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
    status: PRODUCT_VALUE_LABELS.status[p.status][lang],
    requires_serial: boolCell(p.requires_serial),
    default_logistics_provider: p.default_logistics_provider_id
      ? (codes.providers.get(p.default_logistics_provider_id) ?? null)
      : null,
    default_platform: p.default_platform_id ? (codes.platforms.get(p.default_platform_id) ?? null) : null,
  };
}
