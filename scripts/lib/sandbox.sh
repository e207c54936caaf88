# The host side of the execute tool's sandbox, checked before the tests. Sourced after common.sh.

# ensure_sandbox_host: bubblewrap installed (apt-get as root) and able to make a user namespace here.
# Only warns: without them the sandbox tests fail with the reason, the other tests are unaffected.
ensure_sandbox_host() {
  ensure_system_package bwrap bubblewrap "the sandbox tests (the execute tool)" || return 0
  if ! bwrap --unshare-all --ro-bind / / --proc /proc --dev /dev true 2>/dev/null; then
    warn "bubblewrap cannot create a user namespace here (max_user_namespaces 0, AppArmor's" \
      "apparmor_restrict_unprivileged_userns, or Docker's default seccomp profile): the sandbox tests" \
      "will fail (docs/testing.md)"
  fi
}
