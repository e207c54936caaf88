# One image for both process roles: APP_ROLE=api|worker|all (default all) picks what it runs.

# --- build: all dependencies, compile TypeScript into dist/ -------------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY nest-cli.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
COPY console ./console
RUN npm run build

# --- runtime: production dependencies and the compiled output only -------------------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production DATA_DIR=/data
# The execute tool's sandbox: bubblewrap, with unshare, mount and prlimit (util-linux) and find
# (findutils). util-linux and findutils come with the base image; naming them keeps them if it changes,
# and the loop fails the build when a tool is missing. The container also needs user namespaces (see
# the worker service in docker-compose.yml); without them `execute` is reported unavailable.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends bubblewrap util-linux findutils \
  && rm -rf /var/lib/apt/lists/* \
  && for tool in bwrap unshare mount prlimit find; do command -v "$tool" >/dev/null || exit 1; done
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY skills ./skills
# The code stays root-owned and read-only to the process; only DATA_DIR is writable. A named volume
# mounted on /data starts with this ownership.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000 3001
# Readiness of either role, asked with node (the image has no curl): the API (and APP_ROLE=all) on PORT,
# a worker on its WORKER_HEALTH_PORT listener. 503 (starting, draining, a dependency down) is unhealthy.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["node", "-e", "const e = process.env; const port = e.APP_ROLE === 'worker' ? e.WORKER_HEALTH_PORT || '3001' : e.PORT || '3000'; fetch('http://127.0.0.1:' + port + '/api/health/ready', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Nest's shutdown hooks handle SIGTERM: stop taking work, drain queue workers within
# SHUTDOWN_GRACE_SECONDS, close connections. Give the container a longer stop timeout than that.
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]
