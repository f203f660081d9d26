import { z } from 'zod';
import { defineRoutes } from './routes';

export const carrierRoutes = defineRoutes({
  /**
   * ECPay logistics status callback (the `ServerReplyURL` of Express/Create): a form POST signed with CheckMacValue
   * (the merchant's hash key and IV); answered `1|OK` as ECPay requires, 401 when the signature does not verify.
   */
  ecpayLogisticsNotify: {
    method: 'POST',
    path: '/api/carriers/ecpay/notify/',
    auth: 'public',
    body: z.record(z.string().max(100), z.string().max(1000)),
    response: z.string(),
  },
});
