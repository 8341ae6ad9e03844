#!/usr/bin/env bash
# Compiles every native source for macOS (arm64, x86_64) and Windows (x86_64, MinGW ABI) with zig,
# so code for the platforms we cannot run here at least builds with -Werror. Compile only (-c), no
# linking: a Node addon links against the host's node binary / node.lib, which we do not have.
#
# Sources: every .cc under native/src except other platforms' files — platform/<os>.cc and
# platform/crypto_<os>.cc, as native/binding.gyp's conditions pick them (works on a partial tree).
# Defines: taken from native/binding.gyp (target + Debug configuration + the OS's conditions), so
# this check sees the same macros as node-gyp does on that OS.
#
# Env: DD_NATIVE_SRC (default native/src), DD_BINDING_GYP (default native/binding.gyp),
#      DD_CROSS_TARGETS (default: all three), DD_CROSS_JOBS (default: one per core), ZIG_*_CACHE_DIR, DD_CROSS_CACHE (stamps of clean
#      compiles, default inside zig's global cache).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
src_dir="${DD_NATIVE_SRC:-native/src}"
gyp="${DD_BINDING_GYP:-native/binding.gyp}"
targets="${DD_CROSS_TARGETS:-aarch64-macos x86_64-macos x86_64-windows-gnu}"

die() { echo "cross-compile: $*" >&2; exit 1; }

python3 -m ziglang version >/dev/null 2>&1 || die "zig not found: python3 -m pip install ziglang"
[[ -d "$src_dir" ]] || die "no source folder $src_dir"

work="$(mktemp -d "${TMPDIR:-/tmp}/diskdial-cross-XXXXXX")"
trap 'rm -rf "$work"' EXIT
# zig caches in $HOME by default; keep it in a writable place of our own unless told otherwise.
export ZIG_GLOBAL_CACHE_DIR="${ZIG_GLOBAL_CACHE_DIR:-${TMPDIR:-/tmp}/diskdial-zig-cache}"
export ZIG_LOCAL_CACHE_DIR="${ZIG_LOCAL_CACHE_DIR:-$ZIG_GLOBAL_CACHE_DIR}"
mkdir -p "$ZIG_GLOBAL_CACHE_DIR" "$ZIG_LOCAL_CACHE_DIR"

napi_include="$(node -p "require('path').dirname(require.resolve('node-addon-api/package.json'))")" ||
  die "node-addon-api not installed: run npm install"
node_include="$(dirname "$(command -v node)")/../include/node"
if [[ ! -f "$node_include/node_api.h" ]]; then
  # node-gyp's header cache, when Node itself was installed without headers.
  node_include="${HOME:-/root}/.cache/node-gyp/$(node -p 'process.versions.node')/include/node"
fi
[[ -f "$node_include/node_api.h" ]] || die "Node headers (node_api.h) not found next to node or in node-gyp's cache"
node_include="$(cd "$node_include" && pwd)"

# gyp_defines OS -> one -D flag per line: the target's defines, the Debug configuration's, and
# those of every condition that holds for OS ('mac' | 'win' | 'linux').
gyp_defines() {
  python3 "$root/scripts/gyp-target.py" "$gyp" "$1" Debug defines | sed 's/^/-D/'
}

# sources_for OS -> .cc files under $src_dir for that OS, one per line.
sources_for() {
  local exclude
  case "$1" in
    mac) exclude='^(crypto_)?(linux|win)\.cc$' ;;
    win) exclude='^(linux|posix|darwin|crypto_linux|crypto_darwin)\.cc$' ;;
  esac
  find "$src_dir" -type f -name '*.cc' | LC_ALL=C sort | while read -r f; do
    if [[ "$(dirname "$f")" == "$src_dir/platform" && "$(basename "$f")" =~ $exclude ]]; then
      continue
    fi
    echo "$f"
  done
}

common=(-std=c++17 -Wall -Wextra -Werror -Wno-unused-parameter -fexceptions
  -I "$src_dir" -I "$napi_include" -I "$node_include")

# A compile that passed once passes again for the same input: its stamp, named by the hash of the
# compiler, target, flags, the source, every header under $src_dir and the Node/N-API versions,
# lets a fresh clone (CI's) skip it. Stamps live with zig's cache unless DD_CROSS_CACHE says.
cache="${DD_CROSS_CACHE:-$ZIG_GLOBAL_CACHE_DIR/diskdial-cross-ok}"
mkdir -p "$cache"
inputs_of_all="$(
  python3 -m ziglang version
  node -p 'process.versions.node + " napi " + require("node-addon-api/package.json").version'
  find "$src_dir" -type f -name '*.h' | LC_ALL=C sort | xargs cat | sha256sum
)"
# One compile; a failure leaves its report in $work/failed.* for the end.
compile_one() {
  local target=$1 f=$2 key=$3 out
  shift 3
  local obj="$work/$target/${f//\//_}.o"
  mkdir -p "$(dirname "$obj")"
  if out="$(python3 -m ziglang c++ -target "$target" "${common[@]}" "$@" -c "$f" -o "$obj" 2>&1)"; then
    [[ -z "$out" ]] || echo "$out" # warnings are errors, but keep any notes visible
    : >"$cache/$key"
  else
    printf 'FAIL %s: %s\n  python3 -m ziglang c++ -target %s %s %s -c %s\n%s\n' \
      "$target" "$f" "$target" "${common[*]}" "$*" "$f" "$out" >"$(mktemp "$work/failed.XXXXXX")"
  fi
}

# Compiles run side by side, one per core (each is a single-threaded zig process), or
# DD_CROSS_JOBS of them: npm test gives it one core, the other runs the I/O tests.
max_jobs="${DD_CROSS_JOBS:-$(nproc 2>/dev/null || echo 2)}"
total=0
reused=0
for target in $targets; do
  case "$target" in
    *-macos) os=mac ;;
    *-windows-*) os=win ;;
    *) die "unsupported target $target" ;;
  esac
  mapfile -t defines < <(gyp_defines "$os")
  mapfile -t files < <(sources_for "$os")
  [[ ${#files[@]} -gt 0 ]] || die "no .cc files under $src_dir"
  for f in "${files[@]}"; do
    key="$({ printf '%s\n' "$inputs_of_all" "$target" "${common[*]}" "${defines[*]}"; cat "$f"; } | sha256sum | cut -c1-64)"
    total=$((total + 1))
    if [[ -e "$cache/$key" ]]; then
      reused=$((reused + 1))
      continue
    fi
    while (($(jobs -rp | wc -l) >= max_jobs)); do wait -n || true; done
    compile_one "$target" "$f" "$key" "${defines[@]}" &
  done
  echo "     $target: ${#files[@]} files [${defines[*]}]"
done
wait
if compgen -G "$work/failed.*" >/dev/null; then
  cat "$work"/failed.* >&2
  exit 1
fi
echo "cross-compile: $total compilations, all clean ($reused unchanged since a clean compile, not repeated)"
