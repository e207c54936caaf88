# Shared by scripts/start.sh and scripts/test.sh. Sourced, not run.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

log() { printf '\033[1m==>\033[0m %s\n' "$*" >&2; }
warn() { printf '\033[1mwarning:\033[0m %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Installs node_modules from the lockfile when missing or older than the lockfile.
ensure_dependencies() {
  command -v node >/dev/null || die "Node.js >= 20.19 is required (https://nodejs.org)"
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing dependencies (npm ci)"
    npm ci --no-audit --no-fund
  fi
}

# tcp_up HOST PORT: is something listening?
tcp_up() { node scripts/lib/tcp-check.js "$1" "$2" 1500; }

wait_tcp() {
  local host=$1 port=$2 name=$3
  for _ in $(seq 1 60); do tcp_up "$host" "$port" && return 0; sleep 1; done
  die "$name did not come up on $host:$port"
}

docker_engine() { command -v docker >/dev/null && docker info >/dev/null 2>&1; }

can_apt_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }

# apt_get_install PACKAGE...: installs with apt-get (root only), refreshing the package lists once per script.
APT_LISTS_UPDATED=0
apt_get_install() {
  log "installing $* (apt-get)"
  if [ $APT_LISTS_UPDATED = 0 ]; then
    apt-get update -qq || return 1
    APT_LISTS_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

apt_install() {
  can_apt_install || die "$* not installed: install it, or run a Docker engine so docker compose can start it"
  apt_get_install "$@"
}

# ensure_system_package COMMAND PACKAGE WHO: when COMMAND is missing, installs PACKAGE as root with
# apt-get; otherwise (not root, no apt-get, install failed) says that WHO needs it and returns 1.
ensure_system_package() {
  local command=$1 package=$2 who=$3
  command -v "$command" >/dev/null && return 0
  if can_apt_install && apt_get_install "$package" && command -v "$command" >/dev/null; then return 0; fi
  warn "$command not found: $who need it (apt-get install $package)"
  return 1
}

start_local_postgres() {
  command -v pg_ctlcluster >/dev/null || apt_install postgresql
  local version
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  log "starting the local PostgreSQL $version cluster"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
}

start_local_redis() {
  command -v redis-server >/dev/null || apt_install redis-server
  log "starting a local Redis"
  mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port "$1" --save "" --appendonly no \
    --maxmemory-policy noeviction --dir /var/lib/redis --logfile /var/log/redis/yuxi.log
}

# ensure_services PG_HOST PG_PORT REDIS_HOST REDIS_PORT: brings up what is not reachable,
# with Docker Compose where an engine runs, otherwise the locally installed servers.
# Sets STARTED_WITH_COMPOSE=1 when compose started PostgreSQL (its password is "postgres").
STARTED_WITH_COMPOSE=0
ensure_services() {
  local pg_host=$1 pg_port=$2 redis_host=$3 redis_port=$4
  local need_pg=0 need_redis=0
  tcp_up "$pg_host" "$pg_port" || need_pg=1
  tcp_up "$redis_host" "$redis_port" || need_redis=1
  if [ $need_pg = 0 ] && [ $need_redis = 0 ]; then return 0; fi
  if docker_engine; then
    local services=()
    [ $need_pg = 1 ] && services+=(postgres) && STARTED_WITH_COMPOSE=1
    [ $need_redis = 1 ] && services+=(redis)
    log "starting ${services[*]} with docker compose"
    docker compose up -d "${services[@]}"
  else
    [ $need_pg = 1 ] && start_local_postgres
    [ $need_redis = 1 ] && start_local_redis "$redis_port"
  fi
  wait_tcp "$pg_host" "$pg_port" PostgreSQL
  wait_tcp "$redis_host" "$redis_port" Redis
}
