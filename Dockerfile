# syntax=docker/dockerfile:1
# The production image: the compiled server (apps/server/dist, `npm run build:server`) and the built web app
# (apps/web/dist), run by `node apps/server/dist/main.js` as an unprivileged user. No tsx, no build at start.
#   docker build -t wms .
#   docker run -p 3000:3000 -v wms-data:/data wms                     (PGlite in /data)
#   docker compose up -d                                               (with PostgreSQL 15: compose.yaml)

# ---- build: every dependency (dev included), type-free compile of the server, Vite build of the web app ----
FROM node:20-slim AS build
WORKDIR /app
# The workspaces' manifests first: `npm ci` stays cached until a dependency changes.
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime: production dependencies only, the two builds, a non-root user ----
FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data \
    HOST=0.0.0.0 \
    PORT=3000
WORKDIR /app
# The CJK font the usage statement PDF embeds (USAGE_PDF_FONT).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-droid-fallback && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# Only the server's runtime dependencies (no web app packages: its build is static files).
RUN npm ci --omit=dev --workspace apps/server --no-audit --no-fund && npm cache clean --force
# dist/ holds main.js, migrate.js, check-stock.js, sheet-worker.js and migrations/ (see scripts/build-server.mjs).
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# The node image's unprivileged user (uid 1000) owns the data directory and nothing else.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM (docker stop) lets in-flight requests and running jobs finish within SHUTDOWN_TIMEOUT_SECONDS (10 s):
# keep docker's stop timeout above it (compose.yaml: stop_grace_period).
CMD ["node", "apps/server/dist/main.js"]
