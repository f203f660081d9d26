import { usageRoutes as r, type TLanguage } from '@wms/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { tenantOf } from '../../platform/auth';
import type { TAppDeps } from '../../platform/deps';
import { asUser, route } from '../../platform/http';
import { sendXlsx } from '../../platform/spreadsheet';
import * as disputes from './usage.disputes';
import { statementPdf, statementsXlsx, statementXlsx } from './usage.documents';
import * as service from './usage.service';
import * as reads from './usage.statement-reads';
import * as statements from './usage.statements';

/** /api/billing/usage/…: the seller's usage; /api/crm/usage/…: the CRM's rate cards and sellers' usage (employees). */
export function registerUsageRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db };
  const t = deps.tokens;

  /** A statement as PDF or xlsx (another seller's answers 404 before anything is drawn). */
  async function file(
    id: string,
    customerId: string | undefined,
    format: 'pdf' | 'xlsx',
    lang: TLanguage,
    reply: FastifyReply,
  ) {
    const s = await reads.getStatement(d, id, customerId);
    if (format === 'xlsx')
      return sendXlsx(reply, `${s.number}.xlsx`, await statementXlsx(s, await reads.allStatementEvents(d, id), lang));
    reply.header('content-type', 'application/pdf');
    reply.header('content-disposition', `attachment; filename="${s.number}.pdf"`);
    return statementPdf(s, lang, deps.config.usagePdfFont);
  }

  route(app, t, r.usage, ({ actor, query }) => service.monthUsage(d, tenantOf(actor), query.month));
  route(app, t, r.usageEvents, ({ actor, query }) => service.monthEvents(d, tenantOf(actor), query));
  route(app, t, r.statements, ({ actor, query }) => reads.listStatements(d, { ...query, customerId: tenantOf(actor) }));
  route(app, t, r.statement, ({ actor, params }) => reads.getStatement(d, params.id, tenantOf(actor)));
  route(app, t, r.statementEvents, ({ actor, params, query }) =>
    reads.statementEvents(d, params.id, tenantOf(actor), query),
  );
  route(app, t, r.statementFile, ({ actor, params, query, lang, reply }) =>
    file(params.id, tenantOf(actor), query.format, lang, reply),
  );
  const pay = { db: deps.database.db, config: deps.config, jobs: deps.jobs, providers: deps.providers };
  route(app, t, r.payStatementTapPay, ({ actor, params, body }) =>
    statements.payByTapPay(pay, asUser(actor), params.id, tenantOf(actor), body),
  );
  route(app, t, r.payStatementNewebPay, ({ actor, params }) =>
    statements.payByNewebPay(pay, asUser(actor), params.id, tenantOf(actor)),
  );
  const dd = { db: deps.database.db, config: deps.config, jobs: deps.jobs };
  route(
    app,
    t,
    r.disputeLine,
    ({ actor, params, body }) => disputes.disputeLine(dd, asUser(actor), params.id, tenantOf(actor), body),
    { status: 201 },
  );
  route(app, t, r.statementDisputes, ({ actor, params }) => disputes.listDisputes(d, params.id, tenantOf(actor)));
  route(app, t, r.crmStatementDisputes, ({ params }) => disputes.listDisputes(d, params.id));
  route(app, t, r.crmCorrectDispute, ({ actor, params, body }) => disputes.correctDispute(dd, actor, params.id, body));
  route(app, t, r.crmRejectDispute, ({ actor, params, body }) =>
    disputes.rejectDispute(dd, actor, params.id, body.answer),
  );
  route(app, t, r.snapshot, ({ actor, params }) => reads.getSnapshot(d, params.id, tenantOf(actor)));

  route(app, t, r.crmUsage, ({ params, query }) => service.monthUsage(d, params.id, query.month));
  route(app, t, r.crmUsageEvents, ({ params, query }) => service.monthEvents(d, params.id, query));
  route(app, t, r.crmStatements, ({ query }) =>
    reads.crmListStatements(d, { ...query, customerId: query.customer_id }),
  );
  route(app, t, r.crmExportStatements, async ({ query, lang, reply }) =>
    sendXlsx(
      reply,
      'statements.xlsx',
      await statementsXlsx(await reads.exportStatements(d, { ...query, customerId: query.customer_id }), lang),
    ),
  );
  route(app, t, r.crmRevenue, ({ query }) => reads.revenue(d, query.months));
  route(
    app,
    t,
    r.crmIssueStatement,
    ({ actor, body }) =>
      statements.issueStatement({ ...d, issueOpenMonth: deps.config.usageIssueOpenMonth }, actor, body),
    { status: 201 },
  );
  route(app, t, r.crmStatement, ({ params }) => reads.getStatement(d, params.id));
  route(app, t, r.crmStatementEvents, ({ params, query }) => reads.statementEvents(d, params.id, undefined, query));
  route(app, t, r.crmStatementFile, ({ params, query, lang, reply }) =>
    file(params.id, undefined, query.format, lang, reply),
  );
  route(app, t, r.crmVoidStatement, ({ actor, params, body }) =>
    statements.voidStatement(d, actor, params.id, body.reason),
  );
  route(app, t, r.crmPayStatement, ({ actor, params, body }) =>
    statements.payStatement(d, actor, params.id, body.note ?? ''),
  );
  route(app, t, r.crmSnapshot, ({ params }) => reads.getSnapshot(d, params.id));
  route(app, t, r.crmRateCards, ({ query }) => service.listRateCards(d, query.customer_id));
  route(app, t, r.crmCreateRateCard, ({ actor, body }) => service.createRateCard(d, actor, body), { status: 201 });
  route(app, t, r.crmUpdateRateCard, ({ actor, params, body }) => service.updateRateCard(d, actor, params.id, body));
  route(app, t, r.crmDeleteRateCard, ({ actor, params }) => service.deleteRateCard(d, actor, params.id));
}
