/**
 * Integrations: the seller's API settings and keys, webhooks and partner callbacks (order events to a partner's
 * URL, through the outbox), idempotency keys of the partner API. Owns api_settings, api_idempotency_keys and
 * order_events.
 *
 * This file is the module's public face: other modules import only from here (checked by
 * scripts/check-boundaries.mjs).
 */

export { claimIdempotencyKey, findIdempotencyKey } from './api-settings.repository';
