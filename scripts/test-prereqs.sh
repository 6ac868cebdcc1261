#!/usr/bin/env bash
# What `npm test` needs besides node_modules, checked before it starts (docs/testing.md):
#   Node 24.15+ (or 22.22+), package.json's engines;
#   dbus-run-session and gnome-keyring-daemon: the keychain tests' private Secret Service;
#   /usr/bin/chromium: the browser the Playwright tests drive (playwright.config.ts);
#   PostgreSQL's initdb under /usr/lib/postgresql/*/bin: team mode's throw-away clusters;
#   g++, make, python3: node-gyp builds the SQLite driver for a second runtime (test/electron).
# Missing packages are installed with apt-get when this runs as root (or with password-less sudo)
# on Debian or Ubuntu; otherwise it names them and exits 1. .ci/run uses the same list.
#   bash scripts/test-prereqs.sh                  check everything, install what is missing
#   bash scripts/test-prereqs.sh --packages-only  the system packages only (before Node is set up)
#   bash scripts/test-prereqs.sh --check          report what is missing, install nothing
# BATCHDESK_SKIP_PREREQS=1 skips the check (a machine laid out otherwise, where the tests say what fails).
set -euo pipefail

if [ "${BATCHDESK_SKIP_PREREQS:-}" = "1" ]; then exit 0; fi
packages_only=0
install=1
case "${1:-}" in
  --packages-only) packages_only=1 ;;
  --check) install=0 ;;
esac

if [ "$(uname -s)" != "Linux" ]; then
  echo "test-prereqs: the suite's keychain, browser and PostgreSQL set-up is Debian's; on $(uname -s) the tests that need them say so when they fail." >&2
  exit 0
fi

problems=()
if [ "$packages_only" = "0" ]; then
  # The same range as package.json's engines: ^22.22.2 || >=24.15.0.
  node_ok=0
  if command -v node >/dev/null 2>&1; then
    IFS=. read -r major minor patch <<<"$(node -p 'process.versions.node' 2>/dev/null || echo 0.0.0)"
    if [ "$major" -ge 25 ] || { [ "$major" -eq 24 ] && [ "$minor" -ge 15 ]; } || { [ "$major" -eq 22 ] && { [ "$minor" -gt 22 ] || { [ "$minor" -eq 22 ] && [ "$patch" -ge 2 ]; }; }; }; then node_ok=1; fi
  fi
  if [ "$node_ok" = "0" ]; then
    problems+=("Node 24.15+ or 22.22.2+ (this is $(node --version 2>/dev/null || echo 'no node'); on Linux x64: eval \"\$(bash scripts/node-runtimes.sh)\" puts Node 24.22.3 first on PATH)")
  fi
fi

# Each missing command and the Debian package that brings it.
need=()
command -v dbus-run-session >/dev/null 2>&1 || need+=(dbus)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need+=(gnome-keyring)
[ -x /usr/bin/chromium ] || need+=(chromium)
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
command -v python3 >/dev/null 2>&1 || need+=(python3)

if [ ${#need[@]} -gt 0 ]; then
  as_root=()
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as_root=(sudo -n); fi
  if [ "$install" = "1" ] && command -v apt-get >/dev/null 2>&1 && { [ "$(id -u)" -eq 0 ] || [ ${#as_root[@]} -gt 0 ]; }; then
    echo "test-prereqs: installing ${need[*]} (apt-get)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    problems+=("the packages ${need[*]} (Debian/Ubuntu: sudo apt-get install --no-install-recommends ${need[*]})")
  fi
fi

if [ ${#problems[@]} -gt 0 ]; then
  {
    echo "npm test cannot run yet: it needs"
    for p in "${problems[@]}"; do echo "  - $p"; done
    echo "Install them and run it again (on a fresh Debian or Ubuntu, as root, bash .ci/run does it all; BATCHDESK_SKIP_PREREQS=1 skips this check)."
  } >&2
  exit 1
fi
