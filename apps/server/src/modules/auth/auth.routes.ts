import { authRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { asMember, route } from '../../platform/http';
import * as service from './auth.service';

export function registerAuthRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, config: deps.config, tokens: deps.tokens, rateLimits: deps.rateLimits };
  const t = deps.tokens;
  route(app, t, r.login, ({ body, req }) => service.login(d, body, req.ip));
  route(app, t, r.verifyOtp, ({ body, req }) => service.verifyOtp(d, body, req.ip));
  route(app, t, r.refresh, ({ body }) => service.refreshUserToken(d, body.refresh));
  route(app, t, r.logout, ({ body }) => service.logout(d, body.refresh));
  route(app, t, r.memberLogin, ({ body, req }) => service.memberLogin(d, body, req.ip));
  route(app, t, r.memberRefresh, ({ body }) => service.refreshMemberToken(d, body.refresh));
  route(app, t, r.memberProfile, ({ actor }) => service.getMemberProfile(d, asMember(actor).id));
}
