/**
 * Shopee: shop authorization and tokens, order sync and healing of abnormal orders, arranging shipment and
 * Shopee's label, telling Shopee an order shipped. Owns shopee_shops, shopee_orders and shopee_pushes.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { arrangeShopeeShipment, shopeeLabel } from './shopee.arrange';
export { productCodesKnown, shopeeHeal } from './shopee.heal';
export { platformArrangedOrders, shopeeOrderOf, type TShopeeOrderRow, unlinkShopeeOrders } from './shopee.repository';
export { trackingNumbersToShopee } from './shopee.ship';
