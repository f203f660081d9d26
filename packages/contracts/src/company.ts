import { z } from 'zod';
import { defineRoutes } from './routes';

const TAX_ID_WEIGHTS = [1, 2, 1, 2, 1, 2, 4, 1];

/**
 * Taiwan unified business number (統一編號): 8 digits, weights 1,2,1,2,1,2,4,1, add the digits of each product;
 * valid when the total is divisible by 5 (the rule since 2023-04-01; it was 10 before, and every old number still
 * passes the new rule). When the 7th digit is 7 its product 28 counts as 1 or as 0, and either total may pass.
 */
export function isValidTaxId(value: string): boolean {
  if (!/^\d{8}$/.test(value)) return false;
  let total = 0;
  for (let i = 0; i < 8; i++) {
    const product = Number(value[i]) * TAX_ID_WEIGHTS[i]!;
    total += Math.floor(product / 10) + (product % 10);
  }
  if (value[6] === '7') {
    // 28 → 2 + 8 = 10 was added; it counts as 1 (1 + 0) or as 0.
    return (total - 9) % 5 === 0 || (total - 10) % 5 === 0;
  }
  return total % 5 === 0;
}

/**
 * A Taiwan phone number, normalised (company phone and fax): `+886 2 2720 8889` → `0227208889`, `0912-345-678` → `0912345678`. Landlines
 * are 0 + area code + number (9–10 digits in all), mobiles 09 + 8 digits; an extension may follow `#`.
 * Returns null when it is not one.
 */
function normalizePhone(value: string): string | null {
  const [main = '', ext] = value.split(/#|ext\.?|分機/i).map((s) => s.trim());
  let digits = main.replace(/[\s\-().]/g, '');
  if (digits.startsWith('+886')) digits = `0${digits.slice(4).replace(/^0/, '')}`;
  if (!/^0\d{8,9}$/.test(digits)) return null;
  if (digits.startsWith('09') && digits.length !== 10) return null;
  if (ext !== undefined && !/^\d{1,6}$/.test(ext)) return null;
  return ext ? `${digits}#${ext}` : digits;
}

const ZPhone = z
  .string()
  .trim()
  .max(40)
  .refine((v) => v === '' || normalizePhone(v) !== null)
  .transform((v) => (v === '' ? '' : normalizePhone(v)!));

export const ZCompany = z.object({
  id: z.uuid(),
  name: z.string(),
  tax_id: z.string(),
  invoice_title: z.string(),
  invoice_address: z.string(),
  phone: z.string(),
  fax: z.string(),
  website: z.string(),
  updated_at: z.string(),
});
export type TCompany = z.infer<typeof ZCompany>;

export const ZUpdateCompany = z.strictObject({
  name: z.string().trim().min(1).max(100),
  tax_id: z
    .string()
    .trim()
    .refine((v) => v === '' || isValidTaxId(v)),
  invoice_title: z.string().trim().max(100).optional(),
  invoice_address: z.string().trim().max(200).optional(),
  phone: ZPhone.optional(),
  fax: ZPhone.optional(),
  website: z
    .string()
    .trim()
    .max(200)
    .refine((v) => v === '' || /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(v))
    .optional(),
});
export type TUpdateCompany = z.infer<typeof ZUpdateCompany>;

export const companyRoutes = defineRoutes({
  getCompany: { method: 'GET', path: '/api/corporation/', auth: 'customer', perm: 'basics:read', response: ZCompany },
  updateCompany: {
    method: 'PUT',
    path: '/api/corporation/',
    auth: 'customer',
    perm: 'basics:write',
    body: ZUpdateCompany,
    response: ZCompany,
  },
});
