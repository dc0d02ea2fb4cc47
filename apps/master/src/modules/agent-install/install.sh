#!/usr/bin/env bash
# Installs the Rampart edge agent on Debian or Ubuntu and registers the server as a pending node:
#
#   curl -fsSL https://MASTER/agent/install.sh | sudo bash -s -- --token TOKEN
#
# nginx with the modules from the distribution, the agent bundle and Node.js runtime from the master
# (the first of --master's list that answers; checked against its SHA256SUMS), and a systemd unit. The master serves the bundle, the
# runtime and the sums only to the install token, which this script sends in an Install-Token header
# (this script itself holds no secret). The previous agent is kept in
# /opt/rampart-agent.previous. With --root DIR everything is written under DIR and the package and
# service commands are printed, not run (a dry run in a throwaway root).
set -euo pipefail

MASTER='@MASTER_URL@'
TOKEN=''
ROOT=''
PREFIX=/opt/rampart-agent
DATA_DIR=/var/lib/rampart-agent
UNIT=/etc/systemd/system/rampart-agent.service
PACKAGES=(nginx libnginx-mod-http-lua libnginx-mod-stream libnginx-mod-http-cache-purge
  libnginx-mod-http-headers-more-filter libnginx-mod-http-modsecurity modsecurity-crs lua-cjson
  nginx-dev gcc make curl ca-certificates)

usage() {
  cat <<USAGE
Usage: install.sh --token TOKEN [--master URL[,URL...]] [--root DIR]

  --token TOKEN   the cluster install token shown under "Add node" on the master's node list;
                  it admits the downloads (sent as an Install-Token header) and the node
  --master URLS   the master, or several separated by commas (at most 16, each once): the agent
                  goes on to the next when one stops answering (default: ${MASTER})
  --root DIR      write everything under DIR and only print package and service commands
USAGE
}

die() {
  echo "install.sh: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case "$1" in
    --token) TOKEN="${2:-}"; shift 2 || die "--token needs a value" ;;
    --master) MASTER="${2:-}"; shift 2 || die "--master needs a value" ;;
    --root) ROOT="${2:-}"; shift 2 || die "--root needs a value" ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

[[ "$TOKEN" =~ ^[0-9a-f]{16,128}$ ]] || die "--token: give the cluster install token (hex) from the node list"
ADDRESS='https?://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\])(:[0-9]{1,5})?'
[[ "$MASTER" =~ ^$ADDRESS(,$ADDRESS)*$ ]] ||
  die "--master: an http(s) address such as https://cdn.example.com, without a path, or several separated by commas"
IFS=',' read -r -a MASTERS <<<"$MASTER"
[ "${#MASTERS[@]}" -le 16 ] || die "--master: at most 16 masters"
seen=','
for master in "${MASTERS[@]}"; do
  # The same master however it is written (the agent refuses a list that names one twice).
  key="${master,,}"
  case "$key" in http://*:80) key="${key%:80}" ;; https://*:443) key="${key%:443}" ;; esac
  [[ "$seen" != *",$key,"* ]] || die "--master: each master once ($master is there twice)"
  seen="$seen$key,"
done
if [ -n "$ROOT" ]; then
  [ -d "$ROOT" ] || die "--root: $ROOT is not a directory"
  ROOT="$(cd "$ROOT" && pwd)"
fi

# Runs a command, or in a dry run prints it.
run() {
  if [ -n "$ROOT" ]; then
    printf 'would run:'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

if [ -z "$ROOT" ]; then
  [ "$(id -u)" -eq 0 ] || die "run as root (sudo bash -s -- ...)"
  [ -r /etc/os-release ] || die "cannot tell the distribution: /etc/os-release is missing"
  # shellcheck disable=SC1091
  . /etc/os-release
  case "${ID:-}" in
    debian | ubuntu) ;;
    *) die "Debian or Ubuntu only (this is ${ID:-unknown})" ;;
  esac
fi

echo "Installing nginx and its modules"
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y "${PACKAGES[@]}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The master answers these only to the install token (or a node credential).
download() {
  curl -fsS --retry 3 -H "Install-Token: $TOKEN" "$SOURCE/agent/$1" -o "$work/$1" ||
    die "could not download $SOURCE/agent/$1 (a 401 means the master does not take this install token)"
}
# Everything from the first master that answers, so the files and their sums match.
SOURCE=''
for master in "${MASTERS[@]}"; do
  if curl -fsS --retry 3 -H "Install-Token: $TOKEN" "$master/agent/SHA256SUMS" -o "$work/SHA256SUMS"; then
    SOURCE="$master"
    break
  fi
  echo "install.sh: could not download $master/agent/SHA256SUMS" >&2
done
[ -n "$SOURCE" ] || die "no master gave the downloads (a 401 means the master does not take this install token)"
echo "Downloading the agent from $SOURCE"
download rampart-agent.tar.gz
download node
(cd "$work" && sha256sum --quiet -c SHA256SUMS) || die "the download does not match the master's SHA256SUMS"

target="$ROOT$PREFIX"
mkdir -p "$(dirname "$target")"
rm -rf "$target.new"
mkdir -p "$target.new/node/bin"
tar -xzf "$work/rampart-agent.tar.gz" -C "$target.new"
install -m 0755 "$work/node" "$target.new/node/bin/node"
if [ -d "$target" ]; then
  rm -rf "$target.previous"
  mv "$target" "$target.previous"
fi
mv "$target.new" "$target"
# The fast path's nginx module, built against this node's nginx (without it every request is routed
# in Lua, which works, at about 25 % more CPU a proxied request).
echo "Building the edge's nginx module"
run bash "$target/apps/agent/nginx/build.sh" ||
  echo "install.sh: the nginx module did not build; the edge routes every request in Lua" >&2
mkdir -p "$ROOT$DATA_DIR"
chmod 0700 "$ROOT$DATA_DIR"

echo "Writing $UNIT"
mkdir -p "$(dirname "$ROOT$UNIT")"
cat >"$ROOT$UNIT" <<SERVICE
[Unit]
Description=Rampart edge agent
After=network-online.target
Wants=network-online.target

[Service]
ExecStart=$PREFIX/node/bin/node $PREFIX/apps/agent/src/main.ts --master $MASTER --token $TOKEN --data-dir $DATA_DIR
Restart=always
RestartSec=3
TimeoutStopSec=10

[Install]
WantedBy=multi-user.target
SERVICE
chmod 0600 "$ROOT$UNIT"

run systemctl daemon-reload
run systemctl enable --now rampart-agent
echo "Done: the server registers as a pending node; accept it on the master's node list."
