#!/usr/bin/env bash
# Starts the service on a fresh machine: dependencies, .env (fresh secrets), PostgreSQL and Redis,
# the database, a build, then `npm run start:prod` (which applies pending migrations on start).
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

ensure_dependencies
node scripts/lib/create-env.js
DATABASE_URL=$(node scripts/lib/env-get.js DATABASE_URL)
REDIS_URL=$(node scripts/lib/env-get.js REDIS_URL)
[ -n "$DATABASE_URL" ] || die "DATABASE_URL is not set (in the environment or .env)"
[ -n "$REDIS_URL" ] || die "REDIS_URL is not set (in the environment or .env)"
ensure_services \
  "$(node scripts/lib/url-part.js "$DATABASE_URL" host)" "$(node scripts/lib/url-part.js "$DATABASE_URL" port 5432)" \
  "$(node scripts/lib/url-part.js "$REDIS_URL" host)" "$(node scripts/lib/url-part.js "$REDIS_URL" port 6379)"
node scripts/lib/ensure-database.js "$DATABASE_URL"
log "building"
npm run build
log "starting on port $(node scripts/lib/env-get.js PORT 3000) (Ctrl-C stops it gracefully)"
exec node dist/src/main.js
