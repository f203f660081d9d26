import type { TConfig } from '../config';
import type { OutgoingHttp } from './outgoing-http';

/**
 * Outside systems behind one small interface per kind, picked from a registry by the seller's setting ("the provider
 * for this setting"): a use case asks `providers.resolve('carrier', setting.code, setting)` and never knows the
 * protocol. Adapters live in their module's `providers/` folder, call out only through `OutgoingHttp` (timeouts,
 * retries where idempotent, the attempt log, the SSRF guard) and are tested against a local server that speaks the
 * real protocol (`__tests__/fake-<provider>.ts`).
 */

export type TProviderKind = 'payment' | 'marketplace' | 'carrier' | 'webhook';

/** What an adapter is built with: the outgoing client and the operator's settings. */
export interface TProviderServices {
  http: OutgoingHttp;
  config: TConfig;
}

/** Who a call is for, recorded with every attempt. */
export interface TCallContext {
  customerId: string | null;
  reference?: string | null;
}

/** What a payment gateway says about one charge. Amounts are integer TWD as the gateways take them. */
export interface TPaymentResult {
  status: 'succeeded' | 'failed' | 'pending';
  /** The gateway's id of the charge (TapPay rec_trade_id, NewebPay TradeNo): the idempotency key of our record. */
  transactionId: string | null;
  orderNumber?: string | null;
  amount?: number | null;
  /** The gateway's reason for a failure, as it said it (code and message). */
  failure?: string | null;
  /** 3-D Secure: where the browser goes to confirm with the bank. */
  redirectUrl?: string | null;
  cardLastFour?: string | null;
  /** A remembered card (TapPay card_secret) for later charges: store it encrypted. */
  card?: { key: string; token: string } | null;
  /** A periodic authorisation's number at the gateway (NewebPay PeriodNo): what ends it there. */
  periodNo?: string | null;
  /**
   * A query's answer that the gateway has no such charge (no record for the order number, or never paid): with
   * `status: 'pending'`, since a charge still in flight looks the same for a while.
   */
  notFound?: boolean;
  /** A query's answer that the charge waits for the card holder (TapPay 3-D Secure, record_status 4). */
  awaitingBuyer?: boolean;
}

/**
 * Card / online payment (TapPay, NewebPay). A gateway offers what it has: a server-to-server `charge` with a one-time
 * prime or a remembered card and a `query` that confirms a charge by the gateway's own record (TapPay); a browser
 * `checkoutForm` posted to the gateway and `readNotification` that verifies and decodes the gateway's answer
 * (NewebPay MPG and periodic).
 */
export interface TPaymentProvider {
  readonly code: string;
  charge?(
    input: {
      orderNumber: string;
      amount: number;
      description: string;
      source: { prime: string } | { cardKey: string; cardToken: string };
      cardholder?: { name: string; email: string; phone: string };
      remember?: boolean;
      /** 3-D Secure: where the bank sends the browser back to, and where the gateway notifies us. */
      returnUrl?: string;
      notifyUrl?: string;
    },
    ctx: TCallContext,
  ): Promise<TPaymentResult>;
  /** By the gateway's id, or by our order number when the charge's answer never arrived. */
  query?(
    input: { transactionId: string | null; orderNumber: string; amount?: number },
    ctx: TCallContext,
  ): Promise<TPaymentResult>;
  checkoutForm?(input: {
    orderNumber: string;
    amount: number;
    description: string;
    email: string;
    returnUrl: string;
    notifyUrl: string;
    clientBackUrl: string;
    /** A periodic authorisation (NewebPay /MPG/period): the same amount every period of `months`. */
    periodic?: { months: 3 | 12; times: number; firstDay: string } | null;
  }): { action: string; fields: Record<string, string> };
  /**
   * Refund `amount` of a paid charge (TapPay transaction/refund by rec_trade_id; NewebPay CreditCard/Close CloseType=2
   * by our order number). `pending`: no answer, or one that does not say (the outcome is unknown: never sent again
   * blindly). `answer`: the gateway's code and message as it said them.
   */
  refund?(
    input: { transactionId: string | null; orderNumber: string; amount: number },
    ctx: TCallContext,
  ): Promise<{ status: 'succeeded' | 'failed' | 'pending'; refundId: string | null; answer: string }>;
  /**
   * Every charge the gateway recorded in [from, to) (TapPay Record API by time, every page): for reconciliation.
   * `paid`: money taken (and not failed).
   */
  records?(
    input: { from: Date; to: Date },
    ctx: TCallContext,
  ): Promise<
    Array<{ transactionId: string; orderNumber: string | null; amount: number; paid: boolean; status: string }>
  >;
  /** A gateway's notification (form fields as posted): null when it does not verify (wrong signature, undecryptable). */
  readNotification?(fields: Record<string, string>): TPaymentResult | null;
  /**
   * End a periodic authorisation at the gateway (NewebPay AlterStatus `terminate`): no later period is charged.
   * Safe to repeat. A refusal is an AppError PROVIDER_REFUSED with the gateway's code and message.
   */
  endPeriodic?(input: { orderNumber: string; periodNo: string }, ctx: TCallContext): Promise<void>;
}

/** Tokens of a marketplace shop (Shopee: access 4 h, refresh 30 days). */
export interface TMarketplaceTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token lives. */
  expiresIn: number;
}

/** A shop's credentials for a call. */
export interface TMarketplaceAuth {
  shopId: number;
  accessToken: string;
}

/** One order as a marketplace describes it (amounts as decimal strings). */
export interface TMarketplaceOrder {
  orderNumber: string;
  status: string;
  totalAmount: string | null;
  cod: boolean;
  recipient: { name: string; phone: string; zipcode: string; city: string; district: string; fullAddress: string };
  note: string;
  items: Array<{ itemSku: string; modelSku: string; quantity: number; price: string | null }>;
  /** The order's logistics channel (first package's), and its carrier's name as Shopee shows it. */
  logisticsChannelId?: number | null;
  shippingCarrier?: string;
}

/** A marketplace logistics channel: `integrated` when the platform arranges it (not a seller's own logistics). */
export interface TMarketplaceChannel {
  id: number;
  name: string;
  integrated: boolean;
}

/** What the platform needs to arrange an order's shipment (Shopee `get_shipping_parameter`). */
export interface TShippingParameter {
  infoNeeded: { pickup?: string[]; dropoff?: string[]; non_integrated?: string[] };
  pickup: Array<{
    addressId: number;
    address: string;
    flags: string[];
    slots: Array<{ id: string; date: number; text: string; recommended: boolean }>;
  }>;
  dropoff: Array<{ branchId: number; address: string }>;
}

/**
 * What went wrong talking to a marketplace: `auth` (token expired or revoked: refresh, else the seller authorises
 * again), `sign` (our partner key is wrong), `rate_limit`, `server` (5xx, transport) — worth a retry — and
 * `refused` (any other error the platform answered).
 */
export class MarketplaceError extends Error {
  constructor(
    readonly kind: 'auth' | 'sign' | 'rate_limit' | 'server' | 'refused',
    readonly remoteCode: string,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
  get retryable(): boolean {
    return this.kind === 'rate_limit' || this.kind === 'server';
  }
}

/** A shopping platform (Shopee): authorisation, orders ready to ship, tracking numbers back. */
export interface TMarketplaceProvider {
  readonly code: string;
  /** Where the seller authorises the shop; the platform returns to `redirect` with `code` and `shop_id`. */
  authUrl(redirect: string): string;
  getToken(input: { code: string; shopId: number }, ctx: TCallContext): Promise<TMarketplaceTokens>;
  refreshToken(input: { refreshToken: string; shopId: number }, ctx: TCallContext): Promise<TMarketplaceTokens>;
  listOrders(
    auth: TMarketplaceAuth,
    input: { from: Date; to: Date; status: string; cursor?: string | null },
    ctx: TCallContext,
  ): Promise<{ orderNumbers: string[]; nextCursor: string | null; more: boolean }>;
  orderDetails(auth: TMarketplaceAuth, orderNumbers: string[], ctx: TCallContext): Promise<TMarketplaceOrder[]>;
  /** Hand the order to the platform as shipped with our carrier's tracking number. */
  shipOrder(
    auth: TMarketplaceAuth,
    input: { orderNumber: string; trackingNumber: string },
    ctx: TCallContext,
  ): Promise<void>;
  /** Check a push notification's signature against its raw body. */
  verifyPush(rawBody: string, authorization: string): boolean;
  /** The shop's logistics channels. */
  channels(auth: TMarketplaceAuth, ctx: TCallContext): Promise<TMarketplaceChannel[]>;
  shippingParameter(auth: TMarketplaceAuth, orderNumber: string, ctx: TCallContext): Promise<TShippingParameter>;
  /** The shop's addresses at the platform (Shopee `get_address_list`), flags: default/pickup/return address. */
  addressList(
    auth: TMarketplaceAuth,
    ctx: TCallContext,
  ): Promise<Array<{ addressId: number; address: string; flags: string[] }>>;
  /** Arrange a platform-logistics shipment: pickup (address + time slot) or dropoff (branch, when one is needed). */
  arrangeShipment(
    auth: TMarketplaceAuth,
    input: {
      orderNumber: string;
      pickup?: { addressId: number; pickupTimeId: string };
      dropoff?: { branchId?: number };
    },
    ctx: TCallContext,
  ): Promise<void>;
  /** The tracking number the platform has for the order ('' until the shipment is arranged). */
  trackingNumber(auth: TMarketplaceAuth, orderNumber: string, ctx: TCallContext): Promise<string>;
  /** The platform's label (PDF) of an arranged order; null while the platform is still making it. */
  shippingLabel(
    auth: TMarketplaceAuth,
    input: { orderNumber: string; trackingNumber: string; documentType: string },
    ctx: TCallContext,
  ): Promise<Buffer | null>;
}

/**
 * A carrier (T-cat, HCT, ECPay logistics): a consignment number for an order and, where the carrier makes one, its
 * label. Once the carrier has given a number, `createConsignment` never throws: a label that could not be fetched
 * comes back as `label: null` with `labelRef` (what `fetchLabel` needs later) and `labelError`.
 */
export interface TCarrierProvider {
  readonly code: string;
  createConsignment(
    order: {
      orderNumber: string;
      recipient: object;
      sender: object;
      codAmount?: number | null;
      /** Temperature 0001 ambient / 0002 refrigerated / 0003 frozen; size 0001–0004 (60/90/120/150 cm). */
      temperature?: string | null;
      specification?: string | null;
      productName?: string | null;
      memo?: string | null;
      /** The declared value of the goods (ECPay GoodsAmount). */
      goodsAmount?: number | null;
      /** Convenience-store pickup: the store the buyer picks the parcel up at (ECPay ReceiverStoreID). */
      pickupStore?: { storeId: string } | null;
    },
    ctx: TCallContext,
  ): Promise<{
    consignmentNumber: string;
    label?: Buffer | null;
    labelRef?: string | null;
    labelError?: string | null;
    /** Store pickup: the numbers the store-to-store print pages take (ECPay CVSPaymentNo, CVSValidationNo). */
    cvs?: { paymentNo: string | null; validationNo: string | null } | null;
  }>;
  /** The label PDF again (T-cat: DownloadOBT with the FileNo, valid 24 hours). */
  fetchLabel?(ref: { consignmentNumber: string; labelRef: string | null }, ctx: TCallContext): Promise<Buffer>;
}

/** A partner's callback URL: a signed JSON event. */
export interface TWebhookProvider {
  readonly code: string;
  deliver(
    target: { url: string; headers: Record<string, string>; secret: string },
    /** `id`: this delivery (Idempotency-Key); `eventId`: the event (the body's id; default: the delivery id). */
    event: { id: string; eventId?: string; type: string; createdAt?: string; data: unknown },
    ctx: TCallContext,
  ): Promise<{ status: number; attempts: number }>;
}

interface TProviderOf {
  payment: TPaymentProvider;
  marketplace: TMarketplaceProvider;
  carrier: TCarrierProvider;
  webhook: TWebhookProvider;
}

// biome-ignore lint/suspicious/noExplicitAny: each factory reads its own setting shape
type TFactory<K extends TProviderKind> = (setting: any, services: TProviderServices) => TProviderOf[K];

export class ProviderRegistry {
  private readonly factories = new Map<string, TFactory<TProviderKind>>();

  constructor(private readonly services: TProviderServices) {}

  /** Make an adapter available under its kind and code (a module does this once, at start-up). */
  register<K extends TProviderKind>(kind: K, code: string, factory: TFactory<K>): this {
    this.factories.set(`${kind}:${code}`, factory as TFactory<TProviderKind>);
    return this;
  }

  /** The adapter for this setting (its credentials, base URL, …); an unknown code is a setting error. */
  resolve<K extends TProviderKind>(kind: K, code: string, setting: unknown = {}): TProviderOf[K] {
    const factory = this.factories.get(`${kind}:${code}`);
    if (!factory) throw new Error(`no ${kind} provider '${code}'`);
    return factory(setting, this.services) as TProviderOf[K];
  }

  codes(kind: TProviderKind): string[] {
    return [...this.factories.keys()].filter((k) => k.startsWith(`${kind}:`)).map((k) => k.slice(kind.length + 1));
  }
}
