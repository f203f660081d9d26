import { newebpayProvider } from './modules/billing/providers/newebpay';
import { tappayProvider } from './modules/billing/providers/tappay';
import { ecpayProvider } from './modules/carriers/providers/ecpay';
import { tcatProvider } from './modules/carriers/providers/tcat';
import { webhookProvider } from './modules/integrations/providers/webhook';
import { shopeeProvider } from './modules/shopee/providers/shopee';
import type { ProviderRegistry } from './platform/providers';

/** Every outside-system adapter, by kind and code, in one place (as app.ts lists routes and jobs.ts lists jobs). */
export function registerProviders(registry: ProviderRegistry): ProviderRegistry {
  return registry
    .register('webhook', 'webhook', webhookProvider)
    .register('marketplace', 'shopee', shopeeProvider)
    .register('carrier', 'ecpay', ecpayProvider)
    .register('carrier', 'tcat', tcatProvider)
    .register('payment', 'tappay', tappayProvider)
    .register('payment', 'newebpay', newebpayProvider);
}
