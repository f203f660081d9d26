import {
  isTaiwanPostcode,
  normalizeTaiwanPostcode,
  type TErrorCode,
  type TOrderCategory,
  type TOrderChannel,
  type TTimeSlot,
  toTaiwanPhone,
} from '@wms/contracts';

/**
 * Pure validation of an order, shared by the create/edit use cases and the file import (which reports every problem
 * with its row number instead of stopping at the first). No I/O: the caller passes what it looked up.
 */

/** An order as it is about to be written (ids resolved, defaults applied). */
export interface TOrderDraft {
  /** The platform arranges the delivery (Shopee's integrated channels): the recipient may come masked. */
  platform_logistics: boolean;
  platform_order_number: string | null;
  third_party_number: string | null;
  consignment_number: string | null;
  shipping_date: string | null;
  category: TOrderCategory;
  channel: TOrderChannel;
  is_cross_border: boolean;
  recipient_name: string;
  recipient_phone: string;
  recipient_mobile: string;
  recipient_postcode: string;
  recipient_address: string;
  sender_name: string;
  sender_phone: string;
  sender_postcode: string;
  sender_address: string;
  shipping_remark: string;
  warehouse_id: string | null;
  arrival_date: string | null;
  arrival_time_slot: TTimeSlot | null;
  logistics_provider_id: string | null;
  platform_id: string | null;
  cod: boolean;
  cod_amount: string | null;
  total_amount: string | null;
  piece_count: number;
  volume: string | null;
}

/** What validation needs to know about a product of a line. */
export interface TLineProduct {
  id: string;
  number: string;
  type: string;
  status: string;
  allow_shipping: boolean;
  volume_required: boolean;
  /** Combination products: how many components they list (0 = cannot be shipped). */
  component_count: number;
}

export interface TRuleIssue {
  code: TErrorCode;
  field: string | null;
  value?: string | null;
}

/**
 * Normalise a phone for storage: Taiwan numbers as `toTaiwanPhone` writes them; anything else (cross-border) is
 * kept as typed, without spaces.
 */
export function normalizePhone(raw: string, crossBorder: boolean): { value: string; valid: boolean } {
  const trimmed = raw.trim();
  if (trimmed === '') return { value: '', valid: true };
  const tw = toTaiwanPhone(trimmed);
  if (tw) return { value: tw, valid: true };
  return { value: trimmed.replace(/\s+/g, ''), valid: crossBorder };
}

export function normalizePostcode(raw: string, crossBorder: boolean): { value: string; valid: boolean } {
  const value = normalizeTaiwanPostcode(raw.trim());
  if (value === '') return { value, valid: true };
  return { value: crossBorder ? raw.trim() : value, valid: crossBorder || isTaiwanPostcode(value) };
}

/**
 * Normalise phones and postcodes in place and list what is wrong with an order: required fields of spec §5, formats,
 * channel/platform consistency, collect-on-delivery amount, the products' shipping flags and volume.
 */
/** A field the platform masked: only asterisks (Shopee sends "****"). */
const MASKED = /^\*{2,}$/;

export function checkOrder(draft: TOrderDraft, products: TLineProduct[]): TRuleIssue[] {
  const issues: TRuleIssue[] = [];
  const cross = draft.is_cross_border;
  // A platform-logistics order (Shopee arranges the delivery) comes with the recipient masked ("****"): the platform
  // holds the real values and prints them on its own label, so a masked field is kept as given, never "fixed".
  const masked = (v: string) => draft.platform_logistics === true && MASKED.test(v.trim());
  if (!draft.recipient_name.trim()) issues.push({ code: 'REQUIRED_FIELD', field: 'recipient_name' });
  if (!draft.recipient_address.trim()) issues.push({ code: 'REQUIRED_FIELD', field: 'recipient_address' });

  const phone = masked(draft.recipient_phone)
    ? { value: draft.recipient_phone.trim(), valid: true }
    : normalizePhone(draft.recipient_phone, cross);
  const mobile = masked(draft.recipient_mobile)
    ? { value: draft.recipient_mobile.trim(), valid: true }
    : normalizePhone(draft.recipient_mobile, cross);
  draft.recipient_phone = phone.value;
  draft.recipient_mobile = mobile.value;
  if (!phone.value && !mobile.value) issues.push({ code: 'REQUIRED_FIELD', field: 'recipient_phone' });
  if (!phone.valid) issues.push({ code: 'INVALID_FIELD', field: 'recipient_phone', value: phone.value });
  if (!mobile.valid) issues.push({ code: 'INVALID_FIELD', field: 'recipient_mobile', value: mobile.value });

  if (masked(draft.recipient_postcode) || (draft.platform_logistics && !draft.recipient_postcode.trim()))
    draft.recipient_postcode = draft.recipient_postcode.trim();
  else {
    const postcode = normalizePostcode(draft.recipient_postcode, cross);
    draft.recipient_postcode = postcode.value;
    if (!postcode.value) issues.push({ code: 'REQUIRED_FIELD', field: 'recipient_postcode' });
    else if (!postcode.valid)
      issues.push({ code: 'INVALID_FIELD', field: 'recipient_postcode', value: postcode.value });
  }

  const senderPhone = normalizePhone(draft.sender_phone, true);
  draft.sender_phone = senderPhone.value;
  const senderPostcode = normalizePostcode(draft.sender_postcode, cross);
  draft.sender_postcode = senderPostcode.value;
  if (!senderPostcode.valid)
    issues.push({ code: 'INVALID_FIELD', field: 'sender_postcode', value: senderPostcode.value });

  // An e-commerce order names its platform, and only e-commerce orders do.
  if ((draft.channel === 'ecommerce') !== (draft.platform_id !== null))
    issues.push({ code: 'CHANNEL_ABNORMAL', field: 'channel', value: draft.channel });

  // Collect on delivery without an amount collects the order's total (platform files give only the total).
  if (draft.cod && !draft.cod_amount && draft.total_amount) draft.cod_amount = draft.total_amount;
  if (draft.cod && !(draft.cod_amount && Number(draft.cod_amount) > 0))
    issues.push({ code: 'REQUIRED_FIELD', field: 'cod_amount' });
  if (!draft.cod) draft.cod_amount = null;

  for (const p of products) {
    const shippable = p.status === 'active' && p.allow_shipping && (p.type !== 'combination' || p.component_count > 0);
    if (!shippable) issues.push({ code: 'PRODUCT_ABNORMAL', field: 'product', value: p.number });
  }
  if (!draft.volume && products.some((p) => p.volume_required))
    issues.push({ code: 'REQUIRED_FIELD', field: 'volume' });
  return issues;
}
