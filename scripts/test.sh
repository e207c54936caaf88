#!/usr/bin/env bash
# The whole test suite on a fresh machine: dependencies from the lockfile, bubblewrap for the sandbox
# tests, Chromium for the console's browser tests, PostgreSQL and Redis, lint, type check and build, then
# every test (the console's unit tests with Vitest; unit, integration, e2e and browser tests with Jest).
# Extra arguments go to Jest.
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/sandbox.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/browser.sh"

# With local trust authentication the password is ignored; Docker Compose's PostgreSQL needs it.
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres:postgres@127.0.0.1:5432/postgres}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379/0}"

ensure_dependencies
ensure_sandbox_host
ensure_browser
ensure_services \
  "$(node scripts/lib/url-part.js "$TEST_DATABASE_URL" host)" "$(node scripts/lib/url-part.js "$TEST_DATABASE_URL" port 5432)" \
  "$(node scripts/lib/url-part.js "$TEST_REDIS_URL" host)" "$(node scripts/lib/url-part.js "$TEST_REDIS_URL" port 6379)"
log "lint and format check"
npm run lint
log "type check"
npm run typecheck
log "build (the e2e tests run the compiled entrypoints, the browser tests the built console)"
npm run build
log "console unit tests (Vitest)"
npm run test:console
log "tests (test databases are cloned from a template migrated by Jest's global setup)"
npx jest "$@"
