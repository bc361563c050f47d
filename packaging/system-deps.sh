#!/usr/bin/env bash
# Installs the few system packages the app and its checks need, where they are missing:
# a CJK TrueType font (WenQuanYi Zen Hei: Qt widgets and embedded in the PDFs), the PDFs' TrueType fallback
# fonts (DejaVu Sans: Arabic, Hebrew; HanaMin from fonts-hanazono: CJK Extension B such as 𡈼), poppler-utils.
set -eu
need=()
fc-list :lang=zh 2>/dev/null | grep -qi . || need+=(fonts-wqy-zenhei)
[ -f /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || need+=(fonts-wqy-zenhei)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
[ -f /usr/share/fonts/truetype/hanazono/HanaMinB.ttf ] || need+=(fonts-hanazono)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v fc-list >/dev/null 2>&1 || need+=(fontconfig)
# Debian/Ubuntu split venv support out of the system Python
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || need+=(python3-venv)
# Qt's xcb/offscreen plugins load these at start on a bare Debian/Ubuntu.
for lib in libEGL.so.1 libxkbcommon.so.0 libfontconfig.so.1 libGL.so.1 libdbus-1.so.3; do
  ldconfig -p 2>/dev/null | grep -q "$lib" || case $lib in
    libEGL.so.1) need+=(libegl1);; libxkbcommon.so.0) need+=(libxkbcommon0);;
    libfontconfig.so.1) need+=(libfontconfig1);; libGL.so.1) need+=(libgl1);; libdbus-1.so.3) need+=(libdbus-1-3);;
  esac
done
[ ${#need[@]} -eq 0 ] && exit 0
mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
echo "system-deps: installing ${need[*]}"
if [ "$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else
  echo "system-deps: please install: ${need[*]} (apt-get install ${need[*]})" >&2; exit 0; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null || true
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
