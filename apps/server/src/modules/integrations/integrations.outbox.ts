import { z } from 'zod';
import { decryptSecret, encryptSecret } from '../../platform/crypto';
import { defineOutboxTopic } from '../../platform/outbox';

const ZWebhookDelivery = z.object({
  url: z.string().url(),
  headers: z.record(z.string(), z.string()),
  /** The signing secret, AES-256-GCM encrypted with the app key (never clear in the database). */
  secret_enc: z.string(),
  event: z.object({ type: z.string(), data: z.unknown() }),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;

/** A payload for `webhookDelivery` with its secret encrypted. */
export function webhookPayload(
  key: Buffer,
  input: { url: string; headers?: Record<string, string>; secret: string; type: string; data: unknown },
): TWebhookDelivery {
  return {
    url: input.url,
    headers: input.headers ?? {},
    secret_enc: encryptSecret(key, input.secret),
    event: { type: input.type, data: input.data },
  };
}

/** A signed event to a partner's callback URL; the message id is the delivery id the partner de-duplicates by. */
export const webhookDelivery = defineOutboxTopic(
  'webhook.deliver',
  ZWebhookDelivery,
  async ({ message, payload, services }) => {
    const provider = services.providers.resolve('webhook', 'webhook');
    return provider.deliver(
      {
        url: payload.url,
        headers: payload.headers,
        secret: decryptSecret(services.config.encryptionKey, payload.secret_enc),
      },
      { id: message.id, type: payload.event.type, data: payload.event.data },
      { customerId: message.customer_id, reference: message.id },
    );
  },
);
