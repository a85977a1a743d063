# Sourced by scripts/swift-test.sh: the minimal Debian trixie chroot in
# which the Swift suites run (trixie's `swiftlang`, Swift 6.0, needs glibc
# 2.38 or later, newer than this project's build machines have; the library
# built on the host runs inside it).
#
# swift_chroot_prepare sets SWIFT_ROOT to a ready chroot, made with
# debootstrap --variant=minbase from the host's own Debian mirror (the URIs
# of /etc/apt/sources.list.d/debian.sources, or of /etc/apt/sources.list;
# MCPR_SWIFT_MIRROR names another)
# with /usr/share/keyrings/debian-archive-keyring.gpg, plus `swiftlang
# libc6-dev pkgconf` installed with --no-install-recommends. The chroots
# live under $MCPR_SWIFT_CACHE (default /var/cache/mcp-resources-swift),
# outside the clone, one directory per key: a hash of the mirror, the suite,
# the recipe below and the candidate versions of the three packages (looked
# up with the host's apt-get, into a private state directory). A chroot is
# reused while its key holds; one is only ever used once complete (it is
# made under a temporary name and renamed at the end); chroots of other keys
# are removed when a new one is made.
#
# swift_run / swift_stop_child: long steps (debootstrap, apt-get, the
# caller's builds) run in a process group of their own that a trap can stop.
#
# swift_mount / swift_unmount_all: every mount this file makes lies under
# the chroot, and swift_unmount_all unmounts whatever is mounted under
# $MCPR_SWIFT_CACHE (deepest first): the caller runs it from an EXIT trap,
# so that success, failure and signals all leave no mount behind.
#
# swift_chroot_unavailable says why a chroot cannot be made here (empty when
# it can): not root, no debootstrap, no keyring. Whether the mirror serves
# the packages is swift_candidate_versions' answer.

# swift_run COMMAND...: runs a long step as a background job in a session
# (and process group) of its own, and waits for it. The waiting shell stays
# responsive: a signal interrupts the wait at once and runs the caller's
# trap, which stops the whole group with `swift_stop_child`.
SWIFT_CHILD=""
swift_run() {
  setsid "$@" </dev/null 9>&- &
  SWIFT_CHILD=$!
  local rc=0
  wait "$SWIFT_CHILD" || rc=$?
  SWIFT_CHILD=""
  return "$rc"
}

# Stops the running step's whole process group, if any.
swift_stop_child() {
  if [ -n "$SWIFT_CHILD" ]; then
    kill -TERM -- "-$SWIFT_CHILD" 2>/dev/null || kill -TERM "$SWIFT_CHILD" 2>/dev/null || true
    wait "$SWIFT_CHILD" 2>/dev/null || true
    SWIFT_CHILD=""
  fi
}

SWIFT_SUITE=trixie
SWIFT_PACKAGES=(swiftlang libc6-dev pkgconf)
# Bump when the way a chroot is made changes (the key changes with it).
SWIFT_RECIPE=1
MCPR_SWIFT_CACHE="${MCPR_SWIFT_CACHE:-/var/cache/mcp-resources-swift}"
SWIFT_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# The host's Debian mirror: MCPR_SWIFT_MIRROR when set, else the first URI
# of a deb822 stanza (or sources.list line) that is not the security archive.
swift_mirror() {
  local m="${MCPR_SWIFT_MIRROR:-}"
  if [ -z "$m" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
    m="$(awk 'tolower($1) == "uris:" { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' \
      /etc/apt/sources.list.d/debian.sources)"
  fi
  if [ -z "$m" ] && [ -f /etc/apt/sources.list ]; then
    m="$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { if ($i !~ /security/) { print $i; exit } else break } }' \
      /etc/apt/sources.list)"
  fi
  echo "${m:-http://deb.debian.org/debian}"
}

swift_debootstrap() {
  if command -v debootstrap >/dev/null 2>&1; then
    command -v debootstrap
  elif [ -x /usr/sbin/debootstrap ]; then
    echo /usr/sbin/debootstrap
  fi
}

# Candidate versions of SWIFT_PACKAGES in the suite, one "name=version" a
# line, from the host's apt-get with a private state directory (the host's
# own apt state is not touched). Fails when the mirror cannot be read.
swift_candidate_versions() {
  local st
  st="$(mktemp -d)"
  mkdir -p "$st/lists/partial" "$st/cache/archives/partial" "$st/parts" "$st/prefs"
  echo "deb [signed-by=$SWIFT_KEYRING] $1 $SWIFT_SUITE main" >"$st/sources.list"
  : >"$st/status"
  local opts=(-o "Dir::State::Lists=$st/lists" -o "Dir::State::status=$st/status"
    -o "Dir::Cache=$st/cache" -o "Dir::Etc::SourceList=$st/sources.list"
    -o "Dir::Etc::SourceParts=$st/parts" -o "Dir::Etc::PreferencesParts=$st/prefs"
    -o "Dir::Etc::Preferences=$st/prefs/none" -o "Acquire::Languages=none"
    -o "Acquire::Retries=2" -o "Debug::NoLocking=1")
  local ok=0
  if apt-get "${opts[@]}" -qq update >"$st/log" 2>&1; then
    local p v
    for p in "${SWIFT_PACKAGES[@]}"; do
      v="$(apt-cache "${opts[@]}" show --no-all-versions "$p" 2>/dev/null | awk '$1 == "Version:" { print $2; exit }')"
      [ -n "$v" ] || { ok=1; echo "swift-chroot: $p not found in $SWIFT_SUITE" >&2; break; }
      echo "$p=$v"
    done
  else
    ok=1
    sed 's/^/swift-chroot: apt-get update: /' "$st/log" >&2
  fi
  rm -rf "$st"
  return $ok
}

swift_chroot_unavailable() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "not root (debootstrap and chroot need root)"
  elif [ -z "$(swift_debootstrap)" ]; then
    echo "debootstrap is not installed (scripts/setup.sh installs it with apt-get)"
  elif [ ! -f "$SWIFT_KEYRING" ]; then
    echo "$SWIFT_KEYRING is missing (package debian-archive-keyring)"
  fi
}

# swift_stop_chroot_processes ROOT: ends every process whose root
# directory is ROOT (what this script started in the chroot and that
# outlived its process group, such as compiler jobs the Swift driver runs in
# groups of their own): TERM, then KILL after two seconds.
swift_stop_chroot_processes() {
  local r="$1" sig p pids
  for sig in TERM KILL; do
    pids=()
    for p in /proc/[0-9]*; do
      [ "$(readlink "$p/root" 2>/dev/null)" = "$r" ] && pids+=("${p#/proc/}")
    done
    [ ${#pids[@]} -gt 0 ] || return 0
    kill -"$sig" "${pids[@]}" 2>/dev/null || true
    [ "$sig" = KILL ] || for _ in $(seq 20); do
      local alive=0
      for p in "${pids[@]}"; do [ -e "/proc/$p" ] && alive=1; done
      [ "$alive" = 1 ] || return 0
      sleep 0.1
    done
  done
}

# Every mount point under the cache, deepest first.
swift_mounts_under_cache() {
  awk -v base="$MCPR_SWIFT_CACHE/" 'index($2, base) == 1 { print $2 }' /proc/self/mounts | sort -r
}

swift_unmount_all() {
  local m tries
  for tries in 1 2 3; do
    [ -n "$(swift_mounts_under_cache)" ] || return 0
    while read -r m; do
      [ -n "$m" ] || continue
      umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
    done < <(swift_mounts_under_cache)
  done
  if [ -n "$(swift_mounts_under_cache)" ]; then
    echo "swift-chroot: could not unmount: $(swift_mounts_under_cache | tr '\n' ' ')" >&2
    return 1
  fi
}

# swift_mount ROOT: /proc, /dev (bind), /dev/pts and /dev/shm inside ROOT,
# and the host's resolver configuration for apt.
swift_mount() {
  local r="$1"
  mkdir -p "$r/proc" "$r/dev" "$r/sys"
  mountpoint -q "$r/proc" || mount -t proc proc "$r/proc"
  mountpoint -q "$r/dev" || mount --bind /dev "$r/dev"
  mkdir -p "$r/dev/pts" "$r/dev/shm"
  mountpoint -q "$r/dev/pts" || mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts" 2>/dev/null || true
  mountpoint -q "$r/dev/shm" || mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
}

# swift_bind SOURCE ROOT TARGET [ro]: bind-mounts SOURCE at ROOT/TARGET.
swift_bind() {
  local src="$1" dst="$2$3"
  mkdir -p "$dst"
  mountpoint -q "$dst" || mount --bind "$src" "$dst"
  if [ "${4:-}" = ro ]; then
    mount -o remount,bind,ro "$dst"
  fi
}

# swift_remove DIR: removes a chroot, refusing while anything is mounted
# under it (a bind mount of the clone would otherwise be deleted with it).
swift_remove() {
  if awk -v base="$1/" 'index($2, base) == 1 { found = 1 } END { exit !found }' /proc/self/mounts; then
    echo "swift-chroot: not removing $1: something is still mounted under it" >&2
    return 1
  fi
  rm -rf --one-file-system "$1"
}

swift_chroot_make() {
  local dir="$1" mirror="$2" tmp="$1.partial"
  local start
  start=$(date +%s)
  swift_unmount_all || return 1
  [ ! -e "$tmp" ] || swift_remove "$tmp" || return 1
  mkdir -p "$MCPR_SWIFT_CACHE"
  echo "== swift: making the $SWIFT_SUITE chroot $dir (debootstrap --variant=minbase, $mirror)"
  # From the cache directory: wget, which debootstrap runs, writes a
  # wget-log into its working directory when it gets a SIGHUP.
  swift_run env -C "$MCPR_SWIFT_CACHE" "$(swift_debootstrap)" --variant=minbase --keyring="$SWIFT_KEYRING" "$SWIFT_SUITE" "$tmp" "$mirror" \
    >"$MCPR_SWIFT_CACHE/debootstrap.log" 2>&1 || {
    tail -30 "$MCPR_SWIFT_CACHE/debootstrap.log" >&2
    echo "swift-chroot: debootstrap failed (log: $MCPR_SWIFT_CACHE/debootstrap.log)" >&2
    return 1
  }
  cp /etc/resolv.conf "$tmp/etc/resolv.conf" 2>/dev/null || true
  swift_mount "$tmp"
  echo "== swift: installing ${SWIFT_PACKAGES[*]} in the chroot"
  swift_run chroot "$tmp" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${SWIFT_PACKAGES[*]} && apt-get clean" \
    >"$MCPR_SWIFT_CACHE/apt.log" 2>&1 || {
    tail -30 "$MCPR_SWIFT_CACHE/apt.log" >&2
    echo "swift-chroot: apt-get install failed (log: $MCPR_SWIFT_CACHE/apt.log)" >&2
    return 1
  }
  swift_unmount_all || return 1
  chroot "$tmp" dpkg-query -W -f '${Package}=${Version}\n' "${SWIFT_PACKAGES[@]}" >"$tmp/.mcpr-swift-installed"
  echo "$SWIFT_VERSIONS" >"$tmp/.mcpr-swift-key-versions"
  # Chroots of other keys are out of date: only this one is kept.
  local old
  for old in "$MCPR_SWIFT_CACHE"/"$SWIFT_SUITE"-*; do
    if [ -d "$old" ] && [ "$old" != "$tmp" ]; then swift_remove "$old" || return 1; fi
  done
  mv "$tmp" "$dir"
  echo "== swift: chroot ready in $(($(date +%s) - start)) s, $(du -sh --one-file-system "$dir" | cut -f1)"
}

# The newest complete chroot in the cache (for a run while the mirror
# cannot be read); fails when there is none.
swift_cached_chroot() {
  local d newest=""
  for d in "$MCPR_SWIFT_CACHE"/"$SWIFT_SUITE"-*; do
    case "$d" in *.partial) continue ;; esac
    [ -f "$d/.mcpr-swift-installed" ] || continue
    if [ -z "$newest" ] || [ "$d/.mcpr-swift-installed" -nt "$newest/.mcpr-swift-installed" ]; then newest="$d"; fi
  done
  [ -n "$newest" ] && echo "$newest"
}

# Sets SWIFT_ROOT from SWIFT_VERSIONS (swift_candidate_versions' output),
# making the chroot when no complete one has that key.
swift_chroot_prepare() {
  local mirror key
  mirror="$(swift_mirror)"
  key="$(printf '%s\n' "recipe=$SWIFT_RECIPE" "mirror=$mirror" "suite=$SWIFT_SUITE" "$SWIFT_VERSIONS" |
    sha256sum | cut -c1-16)"
  SWIFT_ROOT="$MCPR_SWIFT_CACHE/$SWIFT_SUITE-$key"
  if [ -f "$SWIFT_ROOT/.mcpr-swift-installed" ]; then
    echo "== swift: reusing the chroot $SWIFT_ROOT ($(tr '\n' ' ' <"$SWIFT_ROOT/.mcpr-swift-installed"))"
  else
    swift_chroot_make "$SWIFT_ROOT" "$mirror"
  fi
}
