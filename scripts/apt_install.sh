#!/usr/bin/env bash
# Install Debian packages that are missing (as root, or with sudo when it needs no password).
# Usage: scripts/apt_install.sh [--optional] COMMAND PACKAGE...   (skips everything when COMMAND exists; a
# COMMAND that is a path, /usr/share/…, is a file the packages install)
# With --optional a failed install only prints how to install by hand (the app works without it).
set -uo pipefail
optional=0; [ "${1:-}" = "--optional" ] && { optional=1; shift; }
cmd="$1"; shift
case "$cmd" in
  /*) [ -e "$cmd" ] && exit 0 ;;
  *) command -v "$cmd" >/dev/null 2>&1 && exit 0 ;;
esac
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO="none"; fi
fi
if [ "$SUDO" != "none" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages: $* …" >&2
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null && exit 0
fi
if [ "$optional" -eq 1 ]; then
  echo "Note: $cmd is not installed and could not be installed here; install it by hand: apt-get install $*" >&2
  exit 0
fi
echo "Could not install $* (need root or passwordless sudo, and apt-get)." >&2
exit 1
