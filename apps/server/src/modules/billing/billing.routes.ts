import { billingRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { taipeiToday } from '../../platform/calendar';
import type { TAppDeps } from '../../platform/deps';
import { asUser, route } from '../../platform/http';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as charge from './billing.charge';
import * as notify from './billing.notify';
import * as reconcile from './billing.reconcile';
import * as refunds from './billing.refunds';
import * as service from './billing.service';
import { addDays } from './billing.workflow';

const h = (zh: string, ja: string, en: string) => ({ 'zh-TW': zh, ja, en });
const PAYMENT_COLUMNS: TSheetColumn[] = [
  { key: 'created_at', header: h('日期', '日付', 'Date'), width: 22 },
  { key: 'order_number', header: h('交易編號', '取引番号', 'Order number'), width: 28, text: true },
  { key: 'provider', header: h('金流', '決済サービス', 'Provider') },
  { key: 'period', header: h('期間', '期間', 'Period'), width: 24 },
  { key: 'amount', header: h('金額（含稅）', '金額（税込）', 'Amount (incl. tax)') },
  { key: 'tax', header: h('稅額', '税額', 'Tax') },
  { key: 'status', header: h('結果', '結果', 'Result') },
  { key: 'refunded', header: h('已退款', '返金済み', 'Refunded') },
  { key: 'failure', header: h('失敗原因', '失敗理由', 'Failure'), width: 30 },
  {
    key: 'provider_transaction_id',
    header: h('金流交易序號', '決済取引番号', 'Provider transaction'),
    width: 24,
    text: true,
  },
  { key: 'paid_at', header: h('付款時間', '支払日時', 'Paid at'), width: 22 },
];
const STATUS = {
  pending: h('待確認', '確認待ち', 'Pending confirmation'),
  succeeded: h('成功', '成功', 'Succeeded'),
  failed: h('失敗', '失敗', 'Failed'),
};

/** /api/billing/…: the seller's billing; the gateways' notifications; the CRM's contract editing. */
export function registerBillingRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, config: deps.config, jobs: deps.jobs, providers: deps.providers };
  const t = deps.tokens;
  route(app, t, r.overview, ({ actor }) => service.overview(d, actor));
  route(app, t, r.listPayments, ({ actor, query }) => service.listPayments(d, actor, query));
  route(app, t, r.exportPayments, async ({ actor, query, lang, reply }) => {
    const rows = (await service.exportPayments(d, actor, query)).map((p) => ({
      created_at: new Date(p.created_at),
      order_number: p.order_number,
      provider: p.provider === 'tappay' ? 'TapPay' : 'NewebPay',
      period: `${p.period_start} ~ ${p.period_end}`,
      amount: Number(p.amount),
      tax: Number(p.tax),
      status: STATUS[p.status][lang],
      refunded: Number(p.refunded),
      failure: p.failure ?? '',
      provider_transaction_id: p.provider_transaction_id ?? '',
      paid_at: p.paid_at ? new Date(p.paid_at) : null,
    }));
    return sendXlsx(reply, 'billing-records.xlsx', await writeWorkbook('records', PAYMENT_COLUMNS, rows, lang));
  });
  route(app, t, r.getPayment, ({ actor, params }) => notify.getPayment(d, actor, params.id));
  route(app, t, r.payTapPay, ({ actor, body }) => charge.payTapPay(d, asUser(actor), body));
  route(app, t, r.payNewebPay, ({ actor, body }) => charge.payNewebPay(d, asUser(actor), body));
  route(app, t, r.stopAutoRenew, ({ actor }) => service.stopAutoRenew(d, actor));
  route(app, t, r.crmGetContract, ({ params }) => service.crmGetContract(d, params.id));
  route(app, t, r.plans, () => service.plans(d));
  route(app, t, r.requestContract, ({ actor, body }) => service.requestContract(d, asUser(actor), body));
  route(app, t, r.crmPlans, () => service.plans(d));
  route(app, t, r.crmSetPlan, ({ actor, body }) => service.crmSetPlan(d, actor, body));
  route(app, t, r.crmReconciliation, ({ query }) => reconcile.listItems(d, query));
  route(app, t, r.crmRunReconciliation, ({ body }) =>
    reconcile.reconcileDay(d, body.day ?? addDays(taipeiToday(), -1)),
  );
  route(app, t, r.crmResolveReconciliation, ({ actor, params, body }) =>
    reconcile.resolveItem(d, actor, params.id, body.resolution),
  );
  route(app, t, r.crmRefundPayment, ({ actor, params, body }) =>
    refunds.refundPayment(d, actor, params.id, params.payment_id, body),
  );
  route(app, t, r.crmSetContract, ({ actor, params, body }) => service.crmSetContract(d, actor, params.id, body));
  route(app, t, r.tappayNotify, async ({ body, reply }) => {
    reply.type('text/plain; charset=utf-8');
    return notify.receiveTapPayNotify(d, body);
  });
  // NewebPay posts forms and reads plain text: in their own scope.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) => {
      done(null, Object.fromEntries(new URLSearchParams(text as string)));
    });
    scope.setSerializerCompiler(() => (data) => (typeof data === 'string' ? data : JSON.stringify(data)));
    route(scope, t, r.newebpayNotify, async ({ body, reply }) => {
      await notify.receiveNewebPay(d, body);
      reply.type('text/plain; charset=utf-8');
      return 'OK';
    });
    // The browser comes back from NewebPay: record what it carries (verified like Notify), then show the result.
    route(scope, t, r.newebpayReturn, async ({ body, reply, setStatus }) => {
      const payment = await notify.receiveNewebPay(d, body);
      setStatus(303);
      reply.header('location', `/wait-newebpay?payment=${payment.id}`).type('text/plain; charset=utf-8');
      return '';
    });
  });
}
