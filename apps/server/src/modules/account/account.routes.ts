import { authRoutes as r } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { asUser, route } from '../../platform/http';
import * as service from './account.service';

export function registerAccountRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db, config: deps.config, jobs: deps.jobs, rateLimits: deps.rateLimits };
  const t = deps.tokens;
  route(app, t, r.profile, ({ actor }) => service.getProfile(d, asUser(actor)));
  route(app, t, r.employeeProfile, ({ actor }) => service.getProfile(d, asUser(actor)));
  route(app, t, r.updateProfile, ({ actor, body }) => service.updateProfile(d, asUser(actor), body));
  route(app, t, r.changePassword, ({ actor, body }) => service.changePassword(d, asUser(actor), body));
  route(app, t, r.register, ({ body, lang, req }) => service.register(d, body, lang, req.ip));
  route(app, t, r.forgotPassword, ({ body, lang, req }) => service.requestPasswordReset(d, body, lang, req.ip));
  route(app, t, r.resetPassword, ({ body, req }) => service.resetPassword(d, body, req.ip));
  route(app, t, r.twoFactorSetup, ({ actor }) => service.setUpTwoFactor(d, asUser(actor)));
  route(app, t, r.twoFactorEnable, ({ actor, body }) => service.enableTwoFactor(d, asUser(actor), body));
  route(app, t, r.twoFactorDisable, ({ actor, body }) => service.disableTwoFactor(d, asUser(actor), body));
}
