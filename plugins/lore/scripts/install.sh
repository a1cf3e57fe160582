#!/bin/sh
# Installs the lore binary for this machine from a release, after checking it against the release's checksums.txt.
#
#   curl -fsSL https://github.com/lore-dev/lore/releases/latest/download/install.sh | sh
#
# Settings (environment):
#   LORE_VERSION           a version such as 0.2.0 (default: the latest release)
#   LORE_INSTALL_DIR       where `lore` goes (default: $HOME/.local/bin)
#   LORE_INSTALL_BASE_URL  where the release files are (default: the GitHub release)
#   LORE_NO_COMPLETIONS    set to 1 to install no shell completions
#   LORE_INSTALL_QUIET     set to 1 to skip the PATH advice and the next step (the agent plugins' launcher)
set -eu

REPO_URL="https://github.com/lore-dev/lore"

say() { printf '%s\n' "$*" >&2; }
die() { printf 'lore install: %s\n' "$*" >&2; exit 1; }

# --- what to fetch -----------------------------------------------------------

detect_os() {
  case "$(uname -s)" in
    Linux) echo linux ;;
    Darwin) echo darwin ;;
    *) die "unsupported operating system '$(uname -s)': lore ships for Linux and macOS." ;;
  esac
}

detect_arch() {
  arch=$(uname -m)
  # A shell under Rosetta reports x86_64 on Apple silicon; the native build is faster.
  if [ "$1" = darwin ] && [ "$arch" = x86_64 ] &&
    [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || true)" = 1 ]; then
    arch=arm64
  fi
  case "$arch" in
    x86_64 | amd64) echo x64 ;;
    aarch64 | arm64) echo arm64 ;;
    *) die "unsupported architecture '$arch': lore ships for x86_64 and arm64." ;;
  esac
}

# --- tools -------------------------------------------------------------------

# download URL FILE: fails (non-zero) on an HTTP error or a transfer cut short.
download() {
  if command -v curl >/dev/null 2>&1; then
    curl --fail --silent --show-error --location --retry 2 --output "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget --quiet --tries=3 --output-document="$2" "$1"
  else
    die "neither curl nor wget is installed; install one of them and run this again."
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  elif command -v openssl >/dev/null 2>&1; then
    # "SHA2-256(file)= <hex>": the digest is the last field whatever the file is called.
    openssl dgst -sha256 "$1" | awk '{ print $NF }'
  else
    die "no sha256 tool found (sha256sum, shasum or openssl); refusing to install an unverified binary."
  fi
}

# --- shell completions -------------------------------------------------------

# put_completion SHELL FILE: writes `lore completion SHELL` to FILE, saying whether it was new, replaced or current.
put_completion() {
  "$lore_bin" completion "$1" >"$tmp/completion" 2>/dev/null || { say "  (could not write the $1 completion)"; return 0; }
  if [ -f "$2" ] && cmp -s "$tmp/completion" "$2"; then
    say "  $1 completion: $2 (already current)"
  elif [ -f "$2" ]; then
    cp "$tmp/completion" "$2" && say "  $1 completion: $2 (replaced the older one)"
  else
    cp "$tmp/completion" "$2" && say "  $1 completion: $2"
  fi
}

# Only where the shell's own folder for them is found: nothing is added to a shell's startup files.
install_completions() {
  [ "${LORE_NO_COMPLETIONS:-}" != 1 ] || return 0
  data=${XDG_DATA_HOME:-$HOME/.local/share}
  config=${XDG_CONFIG_HOME:-$HOME/.config}
  # bash-completion (2.x) loads a user's completions from this folder on demand.
  bash_dir="$data/bash-completion/completions"
  if [ -d "$bash_dir" ] || { command -v bash >/dev/null 2>&1 &&
    { [ -f /usr/share/bash-completion/bash_completion ] || [ -f /etc/bash_completion ] ||
      [ -f /opt/homebrew/etc/profile.d/bash_completion.sh ] || [ -f /usr/local/etc/profile.d/bash_completion.sh ]; }; }; then
    mkdir -p "$bash_dir" && put_completion bash "$bash_dir/lore"
  fi
  # fish reads ~/.config/fish/completions by itself.
  if [ -d "$config/fish" ] || command -v fish >/dev/null 2>&1; then
    mkdir -p "$config/fish/completions" && put_completion fish "$config/fish/completions/lore.fish"
  fi
  # zsh has no user folder of its own: a folder on its fpath that is this user's (Homebrew's
  # site-functions, ~/.zfunc); as root, only one under HOME, so a system folder is never written.
  if command -v zsh >/dev/null 2>&1; then
    zsh_dir=""
    for d in "${ZDOTDIR:-$HOME}/.zfunc" $(zsh -fc 'print -l -- $fpath' 2>/dev/null); do
      [ -d "$d" ] && [ -w "$d" ] && [ -O "$d" ] || continue
      if [ "$(id -u)" = 0 ]; then case "$d" in "$HOME"/*) ;; *) continue ;; esac; fi
      zsh_dir=$d
      break
    done
    if [ -n "$zsh_dir" ]; then
      put_completion zsh "$zsh_dir/_lore"
    else
      say "  zsh completion: run 'lore completion zsh > DIR/_lore' with DIR a folder on your \$fpath"
    fi
  fi
}

# --- main --------------------------------------------------------------------

main() {
  os=$(detect_os)
  arch=$(detect_arch "$os")
  version=${LORE_VERSION:-}
  version=${version#v}
  install_dir=${LORE_INSTALL_DIR:-${HOME:?HOME is not set; set LORE_INSTALL_DIR}/.local/bin}

  if [ -n "${LORE_INSTALL_BASE_URL:-}" ]; then
    base_url=${LORE_INSTALL_BASE_URL%/}
  elif [ -n "$version" ]; then
    base_url="$REPO_URL/releases/download/v$version"
  else
    base_url="$REPO_URL/releases/latest/download"
  fi

  tmp=$(mktemp -d 2>/dev/null || mktemp -d -t lore-install)
  staged=""
  # Whatever happens, leave neither the download nor a half-copied binary behind.
  trap 'rm -rf "$tmp"; [ -z "$staged" ] || rm -f "$staged"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  download "$base_url/checksums.txt" "$tmp/checksums.txt" ||
    die "could not download $base_url/checksums.txt"

  # checksums.txt names every archive, so it also tells the latest version's file name.
  if [ -n "$version" ]; then
    archive="lore_${version}_${os}_${arch}.tar.gz"
  else
    archive=$(awk -v suffix="_${os}_${arch}.tar.gz" \
      '{ n = $2; sub(/^\*/, "", n) } n ~ /^lore_/ && substr(n, length(n) - length(suffix) + 1) == suffix { print n; exit }' \
      "$tmp/checksums.txt")
    [ -n "$archive" ] || die "this release has no build for $os/$arch (see $base_url/checksums.txt)."
    version=${archive#lore_}
    version=${version%"_${os}_${arch}.tar.gz"}
  fi
  expected=$(awk -v name="$archive" '{ n = $2; sub(/^\*/, "", n) } n == name { print $1; exit }' "$tmp/checksums.txt")
  [ -n "$expected" ] || die "$archive is not listed in $base_url/checksums.txt."

  say "Downloading lore $version for $os/$arch ..."
  download "$base_url/$archive" "$tmp/$archive" ||
    die "download of $base_url/$archive failed or was cut short; nothing was installed."

  actual=$(sha256_of "$tmp/$archive")
  if [ "$actual" != "$expected" ]; then
    die "checksum verification failed for $archive (expected $expected, got $actual): the download is corrupt, incomplete or tampered with; nothing was installed."
  fi

  mkdir "$tmp/x"
  tar -xzf "$tmp/$archive" -C "$tmp/x" lore || die "could not unpack $archive; nothing was installed."
  [ -f "$tmp/x/lore" ] || die "$archive holds no lore binary; nothing was installed."

  mkdir -p "$install_dir" || die "cannot create $install_dir."
  previous=""
  if [ -x "$install_dir/lore" ]; then previous=$("$install_dir/lore" --version 2>/dev/null || echo "an older lore"); fi
  # Copy beside the target, then rename: a rename is atomic, so `lore` is either the old
  # binary or the whole new one, never half of one — even for a running lore.
  staged="$install_dir/.lore.tmp.$$"
  cp "$tmp/x/lore" "$staged" || die "cannot write to $install_dir."
  chmod 755 "$staged"
  if ! installed_version=$("$staged" --version 2>&1); then
    die "the downloaded lore does not run on this machine ($installed_version); nothing was installed."
  fi
  mv -f "$staged" "$install_dir/lore" || die "cannot move lore into $install_dir."
  staged=""

  if [ -n "$previous" ] && [ "$previous" != "$installed_version" ]; then
    say "Replaced $previous with $installed_version at $install_dir/lore"
  elif [ -n "$previous" ]; then
    say "Reinstalled $installed_version at $install_dir/lore (it was already there)"
  else
    say "Installed $installed_version to $install_dir/lore"
  fi
  lore_bin="$install_dir/lore"
  install_completions
  [ "${LORE_INSTALL_QUIET:-}" != 1 ] || return 0

  lore_cmd=lore
  case ":$PATH:" in
    *":$install_dir:"*) ;;
    *)
      lore_cmd="$install_dir/lore"
      case "${SHELL:-}" in
        */zsh) rc=.zshrc ;;
        */bash) rc=.bashrc ;;
        *) rc=.profile ;;
      esac
      say ""
      say "$install_dir is not on your PATH. To add it, run this and open a new terminal:"
      case "${SHELL:-}" in
        */fish) say "  fish_add_path '$install_dir'" ;;
        *) say "  echo 'export PATH=\"$install_dir:\$PATH\"' >> ~/$rc" ;;
      esac
      ;;
  esac
  say ""
  say "Next: run '$lore_cmd setup' to connect lore to Claude Code."
}

main "$@"
