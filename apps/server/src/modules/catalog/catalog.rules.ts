import type { TErrorCode } from '@wms/contracts';

/** A broken product rule: the catalogue code and the field it is about. */
export interface TRuleIssue {
  code: TErrorCode;
  field: string;
  params?: Record<string, unknown>;
}

/** The fields the cross-field rules look at (the product as it will be after the change). */
export interface TProductShape {
  type: string;
  shelf_life_months: number | null;
  sellable_rule_months: number | null;
  volume_required: boolean;
  length_cm: string | null;
  width_cm: string | null;
  height_cm: string | null;
  component_count: number;
}

/**
 * Cross-field rules of a product (pure):
 * - the sellable-date rule needs a shelf life and must be shorter than it (a lot is sellable until expiry minus
 *   the rule's months, so rule ≥ shelf life would never be sellable);
 * - "volume required" means length, width and height must be given (spec §5: volume is a required field);
 * - a combination lists at least one component, a single product none.
 */
export function productRuleIssues(p: TProductShape): TRuleIssue[] {
  const issues: TRuleIssue[] = [];
  if (p.sellable_rule_months !== null) {
    if (p.shelf_life_months === null || p.sellable_rule_months >= p.shelf_life_months)
      issues.push({ code: 'INVALID_FIELD', field: 'sellable_rule_months' });
  }
  if (p.volume_required) {
    // Named by the first missing size: the field the form and the import sheet have (there is no "volume" input).
    const missing = (['length_cm', 'width_cm', 'height_cm'] as const).find((f) => !p[f]);
    if (missing) issues.push({ code: 'REQUIRED_FIELD', field: missing });
  }
  if (p.type === 'combination' && p.component_count === 0) issues.push({ code: 'REQUIRED_FIELD', field: 'components' });
  if (p.type === 'single' && p.component_count > 0) issues.push({ code: 'COMBINATION_INVALID', field: 'components' });
  return issues;
}

/** `12.5000` → `12.5`, `100.0000` → `100`: decimals from numeric columns without trailing zeros. */
export function trimDecimal(v: string | null): string | null {
  if (v === null) return null;
  return v.includes('.') ? v.replace(/\.?0+$/, '') : v;
}
