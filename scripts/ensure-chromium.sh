#!/usr/bin/env bash
# Makes sure /usr/bin/chromium exists for the browser tests (the HTML report is opened in headless Chromium).
# - present: says so and does nothing;
# - Debian: installs Debian's chromium with apt-get (as root, or through passwordless sudo; non-interactive);
# - elsewhere (e.g. Ubuntu, whose chromium package is a snap stub): links /usr/bin/chromium to an installed
#   Chrome or Chromium (GitHub's Ubuntu runners ship google-chrome);
# - cannot (no root, no sudo, no apt): says why and exits 0; the tests then skip locally and fail in CI.
# Prints what it did. Usage: bash scripts/ensure-chromium.sh
set -euo pipefail
target=/usr/bin/chromium

if [[ -x "$target" ]]; then
  echo "ensure-chromium: $target is present ($("$target" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi

if [[ "$(id -u)" == 0 ]]; then
  as_root=()
elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
  as_root=(sudo -n)
else
  echo "ensure-chromium: $target is missing and this user can neither act as root nor use sudo without a password; install chromium yourself (e.g. apt-get install chromium)"
  exit 0
fi

os_id="$(. /etc/os-release 2> /dev/null && echo "${ID:-unknown}" || echo unknown)"
if [[ "$os_id" == debian ]] && command -v apt-get > /dev/null; then
  echo "ensure-chromium: installing Debian's chromium with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq
  "${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium
  echo "ensure-chromium: installed $("$target" --version 2> /dev/null || echo "$target")"
  exit 0
fi

for candidate in google-chrome-stable google-chrome chromium-browser chrome; do
  found="$(command -v "$candidate" || true)"
  if [[ -n "$found" && "$found" != "$target" ]]; then
    "${as_root[@]}" ln -sf "$(readlink -f "$found")" "$target"
    echo "ensure-chromium: linked $target to $(readlink -f "$found") ($os_id: no Debian chromium package)"
    exit 0
  fi
done

if command -v apt-get > /dev/null; then
  echo "ensure-chromium: trying apt-get install chromium on $os_id"
  export DEBIAN_FRONTEND=noninteractive
  "${as_root[@]}" apt-get update -qq && "${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium || true
  if [[ -x "$target" ]]; then echo "ensure-chromium: installed $target"; exit 0; fi
fi
echo "ensure-chromium: could not provide $target on $os_id; install Chromium or Chrome and link it there"
exit 0
