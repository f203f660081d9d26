import { z } from 'zod';

export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** List query of every list call: `?page=&page_size=&search=&ordering=` (Django REST framework habits). */
export const ZListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n))
    .default(10),
  search: z.string().trim().max(200).optional(),
  ordering: z
    .string()
    .regex(/^-?[a-z_]+$/)
    .optional(),
});
export type TListQuery = z.infer<typeof ZListQuery>;

export function ZPage<T extends z.ZodTypeAny>(item: T) {
  return z.object({ count: z.number().int(), results: z.array(item) });
}

export const ZId = z.uuid();
export const ZIdParams = z.object({ id: ZId });

/** Money is a decimal string in JSON, never a float. */
export const ZMoney = z.string().regex(/^-?\d{1,12}(\.\d{1,4})?$/);

export const ZOk = z.object({ ok: z.literal(true) });

/** A calendar day, `YYYY-MM-DD`. */
export const ZIsoDate = z.iso.date();
/**
 * A quantity as typed: any finite number. Whole, non-negative and consistent is checked by the server, which answers
 * ABNORMAL_QUANTITY (spec §8 "Abnormal quantity") rather than a generic format error.
 */
export const ZQuantityInput = z.number().finite().min(-1_000_000_000).max(1_000_000_000);
