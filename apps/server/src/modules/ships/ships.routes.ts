import { shipManifestRoutes as m, shipRoutes as r, shipBoardRoutes } from '@wms/contracts';
import type { FastifyInstance } from 'fastify';
import type { TAppDeps } from '../../platform/deps';
import { route } from '../../platform/http';
import * as manifests from './ships.manifests';
import * as service from './ships.service';

export function registerShipRoutes(app: FastifyInstance, deps: TAppDeps): void {
  const d = { db: deps.database.db };
  const t = deps.tokens;
  route(app, t, r.getShipSettings, ({ actor }) => service.getShipSettings(d, actor));
  route(app, t, r.saveShipSla, ({ actor, body }) => service.saveShipSla(d, actor, body));
  route(app, t, r.saveWarehouseShipping, ({ actor, params, body }) =>
    service.saveWarehouseShipping(d, actor, params.id, body),
  );
  route(app, t, shipBoardRoutes.getShipsToday, ({ actor }) => service.shipsToday(d, actor));
  route(app, t, m.listManifests, ({ actor, query }) => manifests.listManifests(d, actor, query));
  route(app, t, m.scanManifest, ({ actor, body }) => manifests.scanParcel(d, actor, body));
  route(app, t, m.getManifest, ({ actor, params }) => manifests.getManifest(d, actor, params.id));
  route(app, t, m.closeManifest, ({ actor, params }) => manifests.closeManifest(d, actor, params.id));
}
