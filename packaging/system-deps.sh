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
# pdftotext reads the text of the PDFs' CID fonts (no-font mode: STSong-Light) only with poppler's CMaps
[ -d /usr/share/poppler/cMap ] || need+=(poppler-data)
# what the tests run for real, never skip in CI (tests/conftest.py): the desktop entry and AppStream
# validators, xmllint
command -v desktop-file-validate >/dev/null 2>&1 || need+=(desktop-file-utils)
command -v appstreamcli >/dev/null 2>&1 || need+=(appstream)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
command -v fc-list >/dev/null 2>&1 || need+=(fontconfig)
# Debian/Ubuntu split venv support out of the system Python
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || need+=(python3-venv)
# Qt's xcb platform plugin and what it links: packaging/qt-xcb-libs.txt (soname, package; derived with ldd
# on the venv's plugin, checked by tests/packaging/test_system_deps.py). Without libxcb-cursor0 Qt stops at
# start with "xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin".
libs="$(dirname "$0")/qt-xcb-libs.txt"
known=$( (ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null || true) | awk 'NR > 1 {print $1}')
while read -r soname package _; do
  case $soname in ''|'#'*) continue;; esac
  [ "$package" = - ] && continue
  grep -qxF "$soname" <<<"$known" || need+=("$package")
done <"$libs"
# The shipped deployment files are tested on the real engines, which must not be skipped in CI: a
# single-machine Slurm (slurmctld, slurmd, munge), pdsh, sshd for pdsh/clush over ssh to 127.0.0.1 (and
# ssh-keygen for SSH-signed sign-offs), promtool (package prometheus) and shellcheck on the generated files.
# ansible-core and ClusterShell come from pip (the test extra). Debian/Ubuntu package names.
for pair in slurmctld:slurmctld slurmd:slurmd srun:slurm-client munged:munge pdsh:pdsh sshd:openssh-server \
            ssh-keygen:openssh-client shellcheck:shellcheck promtool:prometheus; do
  exe=${pair%%:*}
  command -v "$exe" >/dev/null 2>&1 || [ -x "/usr/sbin/$exe" ] || need+=("${pair#*:}")
done
[ ${#need[@]} -eq 0 ] && exit 0
mapfile -t need < <(printf '%s\n' "${need[@]}" | sort -u)
echo "system-deps: installing ${need[*]}"
if [ "$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else
  echo "system-deps: please install: ${need[*]} (apt-get install ${need[*]})" >&2; exit 0; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null || true
# --no-install-recommends: prometheus without its web console; the services are started by the tests only
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
