import { storeRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import { boolCell } from '../../platform/cells';
import type { TAppDeps } from '../../platform/deps';
import { asMember, route } from '../../platform/http';
import { sendXlsx, type TSheetColumn, writeWorkbook } from '../../platform/spreadsheet';
import * as members from './manage-members';
import * as portal from './member-portal';
import * as purchasing from './purchase';
import * as service from './store.service';

const MEMBER_COLUMNS: TSheetColumn[] = [
  { key: 'name', width: 20 },
  { key: 'email', width: 30 },
  { key: 'phone', text: true },
  { key: 'postcode', text: true },
  { key: 'address', width: 40 },
  { key: 'is_active' },
  { key: 'created_at', width: 24 },
];

export function registerStoreRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, config: deps.config, jobs: deps.jobs };
  const t = deps.tokens;
  // /store-admin
  route(app, t, r.getStoreAdmin, ({ actor }) => service.getStoreAdmin(d, actor));
  route(app, t, r.saveStore, ({ actor, body }) => service.saveStore(d, actor, body));
  route(app, t, r.checkShortUrl, ({ actor, query }) => service.checkShortUrl(d, actor, query.short_url));
  route(app, t, r.listStoreProducts, ({ actor, query }) => service.listStoreProducts(d, actor, query));
  route(app, t, r.updateStoreProduct, ({ actor, params, body }) =>
    service.updateStoreProduct(d, actor, params.id, body),
  );
  route(app, t, r.listStoreOrders, ({ actor, query }) => service.listStoreOrders(d, actor, query));
  // /store-member
  route(app, t, r.listStoreMembers, ({ actor, query }) => members.listMembers(d, actor, query));
  route(app, t, r.exportStoreMembers, async ({ actor, query, lang, reply }) => {
    const rows = (await members.exportMembers(d, actor, query)).map((m) => ({
      ...m,
      is_active: boolCell(m.is_active),
    }));
    return sendXlsx(reply, 'store-members.xlsx', await writeWorkbook('members', MEMBER_COLUMNS, rows, lang));
  });
  route(app, t, r.createStoreMember, ({ actor, body, lang }) => members.createMember(d, actor, body, lang), {
    status: 201,
  });
  route(app, t, r.updateStoreMember, ({ actor, params, body }) => members.updateMember(d, actor, params.id, body));
  route(app, t, r.resetStoreMemberPassword, ({ actor, params, lang }) =>
    members.resetMemberPassword(d, actor, params.id, lang),
  );
  // direct purchase from the main area
  route(app, t, r.sellerCatalog, ({ actor }) => portal.sellerCatalog(d, actor));
  route(app, t, r.sellerPurchase, ({ actor, body }) => purchasing.sellerPurchase(d, actor, body), { status: 201 });
  // the member portal
  route(app, t, r.updateMemberProfile, ({ actor, body }) => portal.updateMemberProfile(d, asMember(actor), body));
  route(app, t, r.changeMemberPassword, ({ actor, body }) => portal.changeMemberPassword(d, asMember(actor), body));
  route(app, t, r.memberCatalog, ({ actor }) => portal.memberCatalog(d, asMember(actor)));
  route(app, t, r.listMemberOrders, ({ actor, query }) => portal.listMemberOrders(d, asMember(actor), query));
  route(app, t, r.memberPurchase, ({ actor, body }) => purchasing.memberPurchase(d, asMember(actor), body), {
    status: 201,
  });
}
