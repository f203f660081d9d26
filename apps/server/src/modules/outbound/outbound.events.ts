import { z } from 'zod';
import { defineEvent } from '../../platform/events';

/**
 * Orders of a seller were shipped (packed, handed to the carrier: status closed, stock consumed): for each its number,
 * when, and how many units left in the box. Published in the shipping transaction. Subscribers: see src/events.ts
 * (usage billing records the pick & pack charges; Shopee hands a Shopee order's tracking number back).
 */
export const ordersShipped = defineEvent(
  'outbound.orders-shipped',
  z.object({
    customer_id: z.uuid(),
    orders: z
      .array(
        z.object({
          order_id: z.uuid(),
          number: z.string().min(1),
          shipped_at: z.iso.datetime({ offset: true }),
          units: z.number().int().nonnegative(),
          /** The carrier's tracking number it left with (absent in messages written before it was added). */
          consignment_number: z.string().min(1).max(64).nullable().optional(),
        }),
      )
      .min(1),
  }),
);
