#!/usr/bin/env bash
# The release as an operator gets it: release/canopy-<version>.tgz (npm run release) unpacked in an empty
# temporary folder outside the repo, started with plain Node on SQLite on a free loopback port. Checks:
# the first start on an empty database prints the next steps, /readyz answers 200, the demo login works,
# the operator CLI runs from the release, and SIGTERM stops the server within the drain (exit 0).
# Usage: tests/release/release-smoke.sh [TARBALL]
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# The Node the release needs stands in for the target's: the repo's own (node_modules/.bin/node, the `node`
# devDependency), whatever Node the machine has (docs/decisions/0026-node-runtime.md).
[ -x "$ROOT/node_modules/.bin/node" ] && PATH="$ROOT/node_modules/.bin:$PATH"
VERSION="$(node -p "require('$ROOT/package.json').version")"
TARBALL="$(realpath "${1:-$ROOT/release/canopy-$VERSION.tgz}")"
DRAIN_MS=1500

WORK="$(mktemp -d -t canopy-release-XXXXXX)"
PID=''
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill -KILL "$PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
  echo "release smoke: FAILED: $*" >&2
  [ -f "$WORK/server.log" ] && sed 's/^/  server| /' "$WORK/server.log" >&2
  exit 1
}

tar -xzf "$TARBALL" -C "$WORK"
APP="$WORK/canopy-$VERSION"
[ -f "$APP/dist/server/main.js" ] || fail "no dist/server/main.js in $TARBALL"
cd "$APP"
[ -f .nvmrc ] || fail "no .nvmrc in $TARBALL: the release does not say which Node it needs"
NEEDS="$(cat .nvmrc)"
node -e "
  const [engines, needs] = process.argv.slice(1);
  if (!engines.startsWith('^' + needs + '.')) { console.error('engines ' + engines + ' and .nvmrc ' + needs + ' disagree'); process.exit(1); }
  if (process.versions.node.split('.')[0] !== needs) { console.error('running on Node ' + process.version + ', the release needs ' + needs); process.exit(1); }
" "$(node -p "require('./package.json').engines.node")" "$NEEDS" || fail "not on the Node the release needs"
echo "release smoke: on Node $(node -v), as the release asks (engines $(node -p "require('./package.json').engines.node"), .nvmrc $NEEDS)"

# A port nobody listens on now (the kernel's pick, released at once).
PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
BASE="http://127.0.0.1:$PORT"

# Only what an operator would set: nothing of the repo's environment (no DATABASE_URL, no NODE_OPTIONS).
run_env=(env -i "PATH=$PATH" "HOME=$WORK" NODE_ENV=production "DATA_DIR=$WORK/data" "PORT=$PORT" HOST=127.0.0.1 "SHUTDOWN_DRAIN_MS=$DRAIN_MS")

"${run_env[@]}" node dist/server/main.js >"$WORK/server.log" 2>&1 &
PID=$!

http() { # http METHOD PATH [JSON]: prints "STATUS BODY"
  node -e "
    const [m, u, b] = process.argv.slice(1);
    fetch(u, { method: m, headers: b ? { 'content-type': 'application/json' } : {}, body: b || undefined })
      .then(async (r) => console.log(r.status + ' ' + (await r.text())), (e) => console.log('000 ' + e.message));
  " "$1" "$BASE$2" "${3:-}"
}

ready=''
for _ in $(seq 1 120); do
  kill -0 "$PID" 2>/dev/null || fail "the server exited before it was ready"
  if [ "$(http GET /readyz | cut -d' ' -f1)" = 200 ]; then ready=1; break; fi
  sleep 0.5
done
[ -n "$ready" ] || fail "/readyz never answered 200 at $BASE"
echo "release smoke: /readyz 200 at $BASE"

grep -q '^Next steps:' "$WORK/server.log" || fail "the first start on an empty database printed no next steps"

answer="$(http POST /h5/api/api/login/login '{"email":"demo@canopy.sg","password":"Canopy2026","agree":true}')"
node -e "
  const a = process.argv[1]; const status = a.slice(0, 3); const body = JSON.parse(a.slice(4));
  if (status !== '200' || typeof body?.data?.token !== 'string' || !body.data.token) { console.error(a); process.exit(1); }
" "$answer" || fail "the demo login did not answer a token: $answer"
echo "release smoke: demo login answered a session token"

"${run_env[@]}" node dist/server/ops/cli.js help >"$WORK/ops.log" 2>&1 || { cat "$WORK/ops.log" >&2; fail "node dist/server/ops/cli.js help failed"; }
grep -q 'ledger:check' "$WORK/ops.log" || fail "the operator CLI's help lists no commands"
echo "release smoke: operator CLI runs from the release"

t0=$(date +%s%N)
kill -TERM "$PID"
limit_ms=$((DRAIN_MS + 10000))
while kill -0 "$PID" 2>/dev/null; do
  [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt "$limit_ms" ] || fail "still running ${limit_ms} ms after SIGTERM"
  sleep 0.1
done
rc=0
wait "$PID" || rc=$?
PID=''
took=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$rc" -eq 0 ] || fail "exit status $rc after SIGTERM"
echo "release smoke: SIGTERM stopped it in ${took} ms (drain ${DRAIN_MS} ms), exit 0"
echo "release smoke: ok"
