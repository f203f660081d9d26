import { describe, expect, it } from 'vitest';
import { createRouteClient, type TClientRequest } from './client';

/** A transport that records what the client would send and answers 200 `{}`. */
function recording() {
  const sent: TClientRequest[] = [];
  const client = createRouteClient(async (req) => {
    sent.push(req);
    return { statusCode: 200, headers: {}, rawPayload: new TextEncoder().encode('{}') };
  });
  return { client, sent };
}

describe('route client', () => {
  it('fills the path, and sends {} for a body left out whose fields are all optional (the server validates {})', async () => {
    const { client, sent } = recording();
    await client.outboundRoutes.shipOrder({ params: { id: 'o1' }, token: 't' });
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/api/outbound-orders/o1/ship/', body: {} });
    expect(sent[0]!.headers.authorization).toBe('Bearer t');
  });

  it('sends no body on a route without one', async () => {
    const { client, sent } = recording();
    await client.outboundRoutes.getOrder({ params: { id: 'o1' } });
    expect(sent[0]).toMatchObject({ method: 'GET', url: '/api/outbound-orders/o1/' });
    expect(sent[0]!.body).toBeUndefined();
  });
});
