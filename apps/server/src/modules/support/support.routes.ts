import { crmSupportRoutes as crm, supportRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import * as service from './support.service';

/** The support desk: sellers' tickets and notices (customer), the staff's board (employee, every seller). */
export function registerSupportRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, config: deps.config, jobs: deps.jobs };
  const t = deps.tokens;
  route(app, t, r.listTickets, ({ actor, query }) => service.listMyTickets(d, actor, query));
  // A bug report may carry a screenshot (about 2 MB as base64): a larger body limit than the default.
  route(app, t, r.createTicket, ({ actor, body }) => service.createTicket(d, actor, body), {
    status: 201,
    bodyLimit: 3 * 1024 * 1024,
  });
  route(app, t, r.getTicket, ({ actor, params }) => service.getMyTicket(d, actor, params.id));
  route(app, t, r.replyTicket, ({ actor, params, body }) => service.replyMyTicket(d, actor, params.id, body), {
    status: 201,
  });
  route(app, t, r.currentNotices, ({ actor }) => service.currentNotices(d, actor));
  route(app, t, r.acknowledgeNotice, ({ actor, params }) => service.acknowledgeNotice(d, actor, params.id));

  route(app, t, crm.listTickets, ({ query }) => service.listAllTickets(d, query));
  route(app, t, crm.getTicket, ({ params }) => service.getAnyTicket(d, params.id));
  route(app, t, crm.replyTicket, ({ actor, params, body }) => service.answerTicket(d, actor, params.id, body), {
    status: 201,
  });
  route(app, t, crm.setTicketStatus, ({ actor, params, body }) =>
    service.setTicketStatus(d, actor, params.id, body.status),
  );
  route(app, t, crm.listAnnouncements, ({ query }) => service.listAnnouncements(d, query));
  route(app, t, crm.createAnnouncement, ({ actor, body }) => service.saveAnnouncement(d, actor, null, body), {
    status: 201,
  });
  route(app, t, crm.updateAnnouncement, ({ actor, params, body }) =>
    service.saveAnnouncement(d, actor, params.id, body),
  );
  route(app, t, crm.deleteAnnouncement, ({ actor, params }) => service.deleteAnnouncement(d, actor, params.id));
}
