import { EVENTS, SUBSCRIBERS } from './events';
import { billingConfirm, billingConfirmSweep, billingRenew, billingRenewals } from './modules/billing/billing.jobs';
import { newebpayPeriodicEnd } from './modules/billing/billing.periodic';
import { billingReconcile } from './modules/billing/billing.reconcile';
import { productImport } from './modules/catalog/catalog.import';
import { dispatchCallbacks, partnerCallback } from './modules/integrations/callbacks';
import { webhookDelivery } from './modules/integrations/integrations.outbox';
import { orderImport } from './modules/outbound/outbound.importer';
import { retentionPurge, retentionSchedule } from './modules/retention/retention.jobs';
import { shopeeHeal } from './modules/shopee/shopee.heal';
import { shopeeShipment, shopeeShipScan } from './modules/shopee/shopee.ship';
import { shopeeSchedule, shopeeSync, shopeeTokenRefresh } from './modules/shopee/shopee.sync-jobs';
import { usageStorageSnapshot } from './modules/usage/usage.jobs';
import { locationImport } from './modules/warehouse/warehouse.import';
import { eventTopics } from './platform/events';
import type { TAnyJobDefinition } from './platform/jobs';
import { jobRetention } from './platform/jobs.maintenance';
import { mailDelivery } from './platform/mail';
import { outboxDeliveryJobs, type TAnyOutboxTopic } from './platform/outbox';

/** Every kind of outside call made after a commit (transactional outbox), in one place. */
export const OUTBOX_TOPICS: readonly TAnyOutboxTopic[] = [
  webhookDelivery,
  partnerCallback,
  shopeeShipment,
  newebpayPeriodicEnd,
  // Domain events (src/events.ts): each delivered to its subscribers.
  ...eventTopics(EVENTS, SUBSCRIBERS),
];

/**
 * Every background and timed job, in one place (as app.ts lists every module's routes). Each is declared beside its
 * use case with `defineJob(name, ZPayload, handler, options)`; the queue starts a worker per job and its schedule.
 */
export const JOBS: readonly TAnyJobDefinition[] = [
  productImport,
  locationImport,
  orderImport,
  ...outboxDeliveryJobs(OUTBOX_TOPICS),
  dispatchCallbacks,
  shopeeSync,
  shopeeSchedule,
  shopeeTokenRefresh,
  shopeeShipScan,
  shopeeHeal,
  jobRetention,
  mailDelivery,
  billingRenewals,
  billingRenew,
  billingConfirm,
  billingConfirmSweep,
  billingReconcile,
  retentionPurge,
  retentionSchedule,
  usageStorageSnapshot,
];
