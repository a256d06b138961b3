# Sourced by scripts/setup.sh and scripts/cpp.sh.
#
#   apt_install WHO WHY PACKAGE...
#
# Installs the Debian packages when run as root where apt-get exists;
# otherwise says on stderr which are missing and WHY that matters, and
# returns 1. Nothing to do (no PACKAGE) returns 0.
apt_install() {
  local who="$1" why="$2"
  shift 2
  [ $# -gt 0 ] || return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "$who: installing system packages: $*"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  else
    echo "$who: missing $*; $why" >&2
    return 1
  fi
}
