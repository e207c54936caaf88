# The console's browser tests drive Debian's Chromium with playwright-core. Sourced after common.sh.

# ensure_browser: chromium installed (apt-get as root). Only warns: without it the browser tests fail
# with that reason, the other tests are unaffected.
ensure_browser() {
  ensure_system_package chromium chromium "the console's browser tests (test/browser)" || return 0
}
