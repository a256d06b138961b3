# Sourced by scripts/setup.sh, scripts/cpp.sh and scripts/go.sh.
#
#   apt_install WHO WHY PACKAGE...
#
# Installs the Debian packages when run as root where apt-get exists.
# Returns 0 when they are installed (or none were asked for); 1, after
# saying on stderr which are missing and WHY that matters, when this
# machine cannot install them (not root, no apt-get); 2 when apt-get
# failed. Callers run it in a condition, where `set -e` does not apply, so
# every step is checked here.
apt_install() {
  local who="$1" why="$2"
  shift 2
  [ $# -gt 0 ] || return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "$who: missing $*; $why" >&2
    return 1
  fi
  echo "$who: installing system packages: $*"
  apt-get update -qq || { echo "$who: apt-get update failed" >&2; return 2; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null \
    || { echo "$who: apt-get install $* failed" >&2; return 2; }
}

#   toolchain_for WHO WHY PACKAGE...
#
# apt_install for a compiled sample bot's toolchain. Returns 0 when the
# toolchain is there (build the bot); 1 when this machine cannot install it
# and this is not CI (the bot's tests skip, saying so). Otherwise it exits the
# calling script with status 1: under CI a sample bot must really be tested,
# as docker.sh does for docker.
toolchain_for() {
  local status=0
  apt_install "$@" || status=$?
  [ "$status" = 0 ] && return 0
  [ "$status" = 1 ] && [ "${CI:-}" != true ] && return 1
  exit 1
}
