#!/bin/sh
# lore's launcher in its agent plugins: runs the lore this plugin is for, from the PATH when that
# lore is this version, else from the host's plugin data folder, installing the release there first
# (install.sh beside this file: the archive is checked against the release's checksums.txt).
# Written by `npm run plugins` (build/plugins.ts) from build/plugin/launch.sh: edit that one.
set -eu

version=@VERSION@
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)

say() { printf 'lore plugin: %s\n' "$*" >&2; }

# The host's data folder for this plugin: Claude Code's ${CLAUDE_PLUGIN_DATA}, Codex's
# $PLUGIN_DATA, else a folder inside the plugin (Gemini CLI deletes it with the extension).
data=${LORE_PLUGIN_DATA:-}
case $data in *'${'*) data= ;; esac # a host that passed the variable on unexpanded
[ -n "$data" ] || data=${CLAUDE_PLUGIN_DATA:-${PLUGIN_DATA:-$here/../.data}}

# Codex starts a plugin's server in the plugin's own folder and tells it no MCP roots; lore answers
# about the repository it starts in, so it starts in its host's folder instead (Linux: /proc, macOS: lsof).
if [ "$(pwd -P)" = "$(cd "$here/.." && pwd -P)" ]; then
  host_dir=$(readlink "/proc/$PPID/cwd" 2>/dev/null || lsof -a -p "$PPID" -d cwd -Fn 2>/dev/null | sed -n 's/^n//p' | head -n 1 || true)
  if [ -n "$host_dir" ] && [ -d "$host_dir" ]; then cd "$host_dir"; fi
fi

# is_this FILE: FILE runs and says it is lore $version.
is_this() {
  said=$("$1" --version 2>/dev/null) || return 1
  case $said in "lore $version" | "lore $version "*) return 0 ;; esac
  return 1
}

# Claude Code's hooks are an option, off unless the user turns it on (claude plugin configure).
if [ "${1:-}" = hook ] && [ "${CLAUDE_PLUGIN_OPTION_HOOK:-false}" != true ]; then exit 0; fi

on_path=$(command -v lore 2>/dev/null || true)
if [ -n "$on_path" ] && is_this "$on_path"; then exec "$on_path" "$@"; fi
bin="$data/bin/lore"
if [ -x "$bin" ] && is_this "$bin"; then exec "$bin" "$@"; fi

# A hook has seconds, not a download's minutes: it stays quiet until the server has installed lore.
if [ "${1:-}" = hook ]; then exit 0; fi

if [ -n "$on_path" ]; then
  say "$on_path is $("$on_path" --version 2>/dev/null || echo 'not a lore that runs'), not lore $version: installing lore $version into $data/bin"
else
  say "lore is not on the PATH: installing lore $version into $data/bin"
fi
mkdir -p "$data" || { say "cannot create $data"; exit 1; }
# install.sh talks on stderr; the MCP server's stdout carries only the protocol.
if ! LORE_VERSION=$version LORE_INSTALL_DIR="$data/bin" LORE_NO_COMPLETIONS=1 LORE_INSTALL_QUIET=1 sh "$here/install.sh" 1>&2; then
  say "could not install lore $version (see above); install it yourself (README: Install) and restart the agent"
  exit 1
fi
exec "$bin" "$@"
