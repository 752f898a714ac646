#!/usr/bin/env bash
# Installs what hostmcp's build, live tests and linters need on a Debian 12
# machine, and only what is missing: a machine is handed over fresh, so the
# project must install its own tools, and a second run must cost nothing
# (make test and make triage call this every time). Quiet when there is
# nothing to do. Runs as root; packages come from Debian only, staticcheck
# from the Go module proxy, the interop client and the benchmarks' peer
# servers from their npm lock files.
set -euo pipefail
cd "$(dirname "$0")/.."

# staticcheck 2026.2.2; older releases do not understand Go 1.26.
STATICCHECK_VERSION=v0.8.2

log() { echo "deps: $*"; }
warn() { echo "deps: warning: $*" >&2; }

case ":$PATH:" in *:/usr/local/go/bin:*) ;; *) [ -d /usr/local/go/bin ] && PATH="$PATH:/usr/local/go/bin" ;; esac
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH="$PATH:/usr/sbin:/sbin" ;; esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

# want PACKAGE COMMAND: PACKAGE is needed unless COMMAND is on PATH or the
# package is already installed.
missing=()
want() {
	if ! command -v "$2" >/dev/null 2>&1 && ! installed "$1"; then
		missing+=("$1")
	fi
}
want linux-perf perf
want bpftrace bpftrace
want ripgrep rg
want iproute2 ip
want procps ps
want util-linux nsenter
want mount mount                                             # the full file system scenario loop-mounts an image
want e2fsprogs mkfs.ext4                                     # ... made with mkfs.ext4
want patch patch                                             # edit's comparison with GNU patch
want diffutils diff
want git git                                                 # explain_repo, and edit's tests
want python3 /usr/bin/python3                                # repl sessions
want ruby irb                                                # repl sessions: irb and sqlite3 are default programs,
want sqlite3 sqlite3                                         # ... tested under confinement
want dbus-daemon dbus-daemon                                 # sys_services' private test bus
want systemd /usr/bin/journalctl                             # sys_logs
want systemd-journal-remote /lib/systemd/systemd-journal-remote # writes the journal sys_logs tests read
want zsh zsh                                                 # the zsh completion script is loaded by zsh in tests
want groff-base groff                                        # the man page is rendered in tests
want man-db man                                              # ... and found by man after the .deb installs it
want systemd systemd-analyze                                 # the unit is verified by systemd-analyze
want chromium chromium                                       # renders the MCP App view (test/e2e's view tests)
want prometheus prometheus                                   # scrapes hostmcp instances in test/e2e's fleet metrics test
want util-linux unshare                                      # test/e2e's fleet: a UTS namespace (hostname) per instance, in a network namespace ip makes
# `scripts/deps.sh generate` (make generate) also installs what rebuilds the
# committed eBPF objects; building and testing never need it.
if [ "${1:-}" = generate ]; then
	want clang clang
	want llvm llvm-strip
	want libbpf-dev /usr/include/bpf/bpf_helpers.h
	want bpftool bpftool
fi
if ! command -v node >/dev/null 2>&1; then
	missing+=(nodejs npm)
elif ! command -v npm >/dev/null 2>&1; then
	missing+=(npm) # Debian's nodejs ships without npm
fi

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "deps: missing ${missing[*]}, and installing them needs root" >&2
		exit 1
	fi
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Without tracefs, tracepoints look absent to perf and bpftrace.
if ! grep -qs ' /sys/kernel/tracing tracefs ' /proc/self/mounts; then
	if mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
		log "mounted tracefs at /sys/kernel/tracing"
	else
		warn "could not mount tracefs at /sys/kernel/tracing; tracepoints will look absent"
	fi
fi

if command -v go >/dev/null 2>&1; then
	gobin=$(go env GOBIN)
	[ -n "$gobin" ] || gobin="$(go env GOPATH)/bin"
	if ! "$gobin/staticcheck" -version 2>/dev/null | grep -q "(${STATICCHECK_VERSION#v})"; then
		log "installing staticcheck $STATICCHECK_VERSION into $gobin"
		go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION"
	fi
else
	warn "go not found; staticcheck not installed"
fi

if [ ! -d test/interop/node_modules ]; then
	if command -v npm >/dev/null 2>&1; then
		log "npm ci in test/interop"
		(cd test/interop && npm ci --no-audit --no-fund --loglevel=error)
	else
		warn "npm not found; the interop test cannot run"
	fi
fi
# The peer servers bench/ measures hostmcp against, from their lock file.
if [ ! -d bench/peers/node_modules ]; then
	if command -v npm >/dev/null 2>&1; then
		log "npm ci in bench/peers"
		(cd bench/peers && npm ci --no-audit --no-fund --loglevel=error)
	else
		warn "npm not found; the benchmarks against peer servers cannot run"
	fi
fi
