#!/usr/bin/env bash
# Builds ngx_http_rampart_module.so (the edge's fast path, see ngx_http_rampart_module.c) against
# the installed nginx, from Debian's nginx-dev (its configured source in /usr/share/nginx/src), into
# build/. Skipped when the module there was built from the same source for the same nginx. Without
# nginx-dev it builds nothing and says so: the agent then routes every request in Lua.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src=/usr/share/nginx/src
out="$here/build"
module="$out/ngx_http_rampart_module.so"

if [ ! -f "$src/configure" ] || [ ! -f "$src/conf_flags" ]; then
  echo "nginx-dev is not installed: the fast path module is not built (every request is routed in Lua)" >&2
  # CI sets this: there the module and its tests must not be skipped.
  [ "${RAMPART_REQUIRE_FAST_PATH:-}" = 1 ] && exit 1
  exit 0
fi
version="$(nginx -v 2>&1)"
stamp="$version $(sha256sum "$here"/*.c "$here"/*.h "$here/config" | sha256sum | cut -c1-16)"
if [ -f "$module" ] && [ "$(cat "$out/stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi

# No dot in the build directory's path: nginx's auto/make turns each ".S" it finds in an object's
# path into the object's name (its sed for assembler sources), and mktemp's default "tmp.XXXXXXXXXX"
# begins with "S" one time in 62 ("No rule to make target .../objs//tmp/tmp.oE8…").
work="$(mktemp -d /tmp/rampart-nginx-module-XXXXXXXXXX)"
trap 'rm -rf "$work"' EXIT
cp -r "$src/." "$work/"
cd "$work"
# shellcheck disable=SC1091
. ./conf_flags
./configure --with-cc-opt="-g -O2 -fPIC -fstack-protector-strong -Wformat -Werror=format-security -D_FORTIFY_SOURCE=2" \
  --with-ld-opt="-Wl,-z,relro -Wl,-z,now -fPIC" "${NGX_CONF_FLAGS[@]}" \
  --add-dynamic-module="$here" --builddir="$work/objs" >"$work/configure.log" 2>&1 \
  || { cat "$work/configure.log" >&2; exit 1; }
make -f "$work/objs/Makefile" modules >"$work/make.log" 2>&1 || { cat "$work/make.log" >&2; exit 1; }
mkdir -p "$out"
cp "$work/objs/ngx_http_rampart_module.so" "$module.tmp"
mv "$module.tmp" "$module"
echo "$stamp" >"$out/stamp"
echo "built $module ($version)"
