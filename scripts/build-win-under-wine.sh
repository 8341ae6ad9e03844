#!/usr/bin/env bash
# Builds the engine addon for Windows x86_64 on Linux with zig, so Wine's node.exe can load it
# (scripts/wine-tests.sh): the sources, defines and libraries native/binding.gyp gives for
# OS=='win' (Release), linked into a DLL named diskdial.node against an import library for
# node.exe's N-API exports. That import library is made here, never committed: a .def listing
# every function the Node headers declare with NAPI_EXTERN (found by preprocessing them with the
# build's own NAPI_VERSION), turned into libnode.a by `zig dlltool`. Also builds platform-test.exe
# (native/test/win/), the platform layer's checks that need a bare Windows process.
#
# Output: native/build/win32-x64/{diskdial.node,platform-test.exe}
# Env: DD_WIN_OUT (output folder), ZIG_*_CACHE_DIR (default: the cross-compile check's cache).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${DD_WIN_OUT:-native/build/win32-x64}"
gyp=native/binding.gyp
target=x86_64-windows-gnu

die() { echo "build-win-under-wine: $*" >&2; exit 1; }

python3 -m ziglang version >/dev/null 2>&1 || die "zig not found: python3 -m pip install ziglang"
export ZIG_GLOBAL_CACHE_DIR="${ZIG_GLOBAL_CACHE_DIR:-${TMPDIR:-/tmp}/diskdial-zig-cache}"
export ZIG_LOCAL_CACHE_DIR="${ZIG_LOCAL_CACHE_DIR:-$ZIG_GLOBAL_CACHE_DIR}"
mkdir -p "$ZIG_GLOBAL_CACHE_DIR" "$out/obj"

napi_include="$(node -p "require('node-addon-api').include_dir")" || die "node-addon-api not installed: run npm install"
# N-API is ABI-stable: any Node's headers declare the same functions for one NAPI_VERSION.
node_include="$(dirname "$(readlink -f "$(command -v node)")")/../include/node"
[[ -f "$node_include/node_api.h" ]] || node_include="${HOME:-/root}/.cache/node-gyp/$(node -p 'process.versions.node')/include/node"
[[ -f "$node_include/node_api.h" ]] || die "Node headers (node_api.h) not found next to node or in node-gyp's cache"

mapfile -t sources < <(python3 scripts/gyp-target.py "$gyp" win Release sources)
mapfile -t defines < <(python3 scripts/gyp-target.py "$gyp" win Release defines | sed 's/^/-D/')
mapfile -t libraries < <(python3 scripts/gyp-target.py "$gyp" win Release libraries | sed -E 's/^(.*)\.lib$/-l\1/')
napi_version="$(printf '%s\n' "${defines[@]}" | sed -n 's/^-DNAPI_VERSION=//p')"
[[ -n "$napi_version" ]] || die "$gyp defines no NAPI_VERSION"

# A build of the same inputs is reused (a fresh clone has no objects, and this build is minutes of
# CPU): keyed by zig, Node and N-API, this script, binding.gyp and every native source and header.
key="$({
  python3 -m ziglang version
  node -p 'process.versions.node + " " + require("node-addon-api/package.json").version'
  cat "$root/scripts/build-win-under-wine.sh" "$gyp"
  find native/src native/test/win -type f \( -name '*.cc' -o -name '*.h' \) | LC_ALL=C sort | xargs cat
} | sha256sum | cut -c1-64)"
reuse="$ZIG_GLOBAL_CACHE_DIR/diskdial-win/$key"
if [[ -f "$reuse/diskdial.node" && -f "$reuse/platform-test.exe" ]]; then
  cp "$reuse/diskdial.node" "$reuse/platform-test.exe" "$out/"
  echo "build-win-under-wine: $out/diskdial.node and platform-test.exe reused (a build of the same inputs)"
  exit 0
fi

zcc() { python3 -m ziglang c++ -target "$target" "$@"; }
start=$SECONDS

# 1. node.exe's N-API as an import library.
{
  echo "LIBRARY node.exe"
  echo "EXPORTS"
  printf '#include <node_api.h>\n' |
    zcc -x c++ -E -P -DNAPI_VERSION="$napi_version" -DNAPI_EXTERN=DD_NAPI_EXPORT -I "$node_include" - |
    tr '\n' ' ' | grep -oE 'DD_NAPI_EXPORT[^;{]*\(' | grep -oE '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\($' |
    tr -d '( ' | LC_ALL=C sort -u
} >"$out/node.def"
count=$(($(wc -l <"$out/node.def") - 2))
((count > 100)) || die "only $count N-API functions found in $node_include (expected well over 100)"
python3 -m ziglang dlltool -m i386:x86-64 -D node.exe -d "$out/node.def" -l "$out/libnode.a"

# 2. Compile (two at a time: CI machines have two cores) and link.
flags=(-std=c++17 -O2 -Wall -Wextra -Werror -Wno-unused-parameter -fexceptions
  "-DNAPI_EXTERN=__declspec(dllimport)" "${defines[@]}"
  -I native/src -I "$napi_include" -I "$node_include")
# One object per source, named by its path: engine/hash.cc and bindings/hash.cc both exist.
objects=()
for s in "${sources[@]}"; do objects+=("$out/obj/${s//\//_}.o"); done
printf '%s\n' "${sources[@]}" | xargs -P 2 -I{} bash -c '
  src="native/$1"; obj="$2/obj/${1//\//_}.o"; shift 2
  python3 -m ziglang c++ -target x86_64-windows-gnu "$@" -c "$src" -o "$obj" ||
    { echo "build-win-under-wine: compiling $src failed" >&2; exit 255; }
' _ {} "$out" "${flags[@]}"
zcc -shared -o "$out/diskdial.node" "${objects[@]}" "$out/libnode.a" "${libraries[@]}"

# 3. The platform layer's own checks, a console program (no Node).
test_sources=(native/test/win/platform_test.cc native/src/platform/win.cc native/src/engine/status.cc)
zcc -std=c++17 -O1 -Wall -Wextra -Werror -Wno-unused-parameter "${defines[@]}" -I native/src \
  "${test_sources[@]}" -o "$out/platform-test.exe"

mkdir -p "$reuse"
cp "$out/diskdial.node" "$out/platform-test.exe" "$reuse/"
echo "build-win-under-wine: $out/diskdial.node ($count N-API imports) and platform-test.exe in $((SECONDS - start))s"
