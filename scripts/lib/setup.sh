# Sourced by scripts/build, scripts/test and scripts/demo: installs what is missing on a
# Debian machine (apt and npm), says what it is doing, and sets the environment the
# toolchain needs. Safe to run again: it installs nothing that is already there.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Emscripten 3.1.6 (Debian) loads acorn from Debian's node modules when it runs.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"

apt_updated=0
apt_install() {
  [ $# -gt 0 ] || return 0
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "missing packages ($*) and not root: install them with apt-get"
    sudo="sudo"
  fi
  if [ "$apt_updated" = 0 ]; then
    say "apt-get update"
    $sudo apt-get update -qq || die "apt-get update failed"
    apt_updated=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null \
    || die "apt-get install $* failed"
}

# ensure_tools [browser]: the compilers, Emscripten, Catch2, Node and npm, xz (scripts/bundle.mjs
# packs the wasm core with it); with `browser` (what
# scripts/test asks for), Debian's Chromium for the browser tests and xmllint (libxml2-utils),
# the XML parser the tests check the Moodle export with.
ensure_tools() {
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v g++ >/dev/null || missing+=(g++)
  command -v make >/dev/null || missing+=(make)
  command -v node >/dev/null || missing+=(nodejs)
  command -v npm >/dev/null || missing+=(npm)
  command -v emcc >/dev/null || missing+=(emscripten)
  command -v clang-format >/dev/null || missing+=(clang-format)  # scripts/format (and its check in scripts/test)
  command -v xz >/dev/null || missing+=(xz-utils)  # scripts/lib/pack_wasm.mjs: the core's wasm in app.js
  [ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
  if [ "${1:-}" = browser ] && [ -z "${CHROMIUM_PATH:-}" ]; then
    command -v chromium >/dev/null || missing+=(chromium)
  fi
  if [ "${1:-}" = browser ]; then
    command -v xmllint >/dev/null || missing+=(libxml2-utils)
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing what is missing: ${missing[*]}"
    apt_install "${missing[@]}"
  fi
  # playwright-core (the browser tests) needs Node 20; the rest runs on Debian's Node 18.
  local node_major
  node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "${1:-}" = browser ] && [ "$node_major" -lt 20 ]; then
    die "the browser tests need Node.js 20 or newer (playwright-core); found $(node --version). Install Node 20 and run again."
  fi
  ensure_npm
}

# npm packages of web/ and the tests (esbuild, playwright-core), from package-lock.json.
ensure_npm() {
  local stamp=node_modules/.package-lock.json
  if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
    say "npm ci (esbuild, playwright-core, prettier, ...)"
    npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
  fi
}
