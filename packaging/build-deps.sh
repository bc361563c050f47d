#!/usr/bin/env bash
# Libraries that Qt's xcb (X11) and Wayland platform plugins link to. PyInstaller copies them into the bundle
# only when the build machine has them, so install them here: then the bundle runs on a desktop that lacks
# them. (libgtk-3 for the optional gtk3 theme plugin is left to the target system on purpose.)
set -eu
need=()
for lib in libxcb-icccm.so.4:libxcb-icccm4 libxcb-keysyms.so.1:libxcb-keysyms1 \
           libxcb-cursor.so.0:libxcb-cursor0 libwayland-cursor.so.0:libwayland-cursor0 \
           libwayland-egl.so.1:libwayland-egl1 libxkbcommon-x11.so.0:libxkbcommon-x11-0; do
  ldconfig -p 2>/dev/null | grep -q "${lib%%:*}" || need+=("${lib##*:}")
done
[ ${#need[@]} -eq 0 ] && exit 0
echo "build-deps: installing ${need[*]}"
if [ "$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else
  echo "build-deps: please install: ${need[*]} (the bundle will need them on the target otherwise)" >&2; exit 0; fi
export DEBIAN_FRONTEND=noninteractive
command -v apt-get >/dev/null || { echo "build-deps: no apt-get; install the libraries for: ${need[*]}" >&2; exit 0; }
$SUDO apt-get update -qq >/dev/null || true
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
