# The preamble every tests/e2e/*.sh sources first (they run as `bash SCRIPT BIN_DIR SOURCE_DIR`):
#   source "$(dirname "${BASH_SOURCE[0]}")/lib/common.bash" "$@"
# It gives
#   bin, src         the build's bin folder and the source tree;
#   tmp              a fresh scratch folder, removed on exit;
#   fail MESSAGE     "FAIL: MESSAGE" on stderr, exit 1;
#   skip REASON      "SKIP: REASON", exit 77, which ctest reports as Skipped (tests/CMakeLists.txt
#                    sets SKIP_RETURN_CODE 77), never as passed;
#   on_exit COMMAND  runs COMMAND (a string, evaluated at exit) before $tmp is removed; the last
#                    registered runs first;
#   mount_small_tmpfs NAME SIZE   a tmpfs of SIZE at $mnt=$tmp/disk, unmounted on exit; skips
#                    (with the reason) without root or where mounting is refused.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bash SCRIPT BIN_DIR SOURCE_DIR" >&2; exit 2; }
bin=$1 src=$2
tmp=$(mktemp -d)
e2e_exit_commands=()

on_exit() { e2e_exit_commands+=("$1"); }

e2e_cleanup() {
  local i
  for ((i = ${#e2e_exit_commands[@]} - 1; i >= 0; i--)); do
    eval "${e2e_exit_commands[i]}" || true
  done
  rm -rf "$tmp"
}
trap e2e_cleanup EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }

mount_small_tmpfs() {
  local name=$1 size=$2
  [ "$(id -u)" -eq 0 ] || skip "$name needs root to mount a tmpfs"
  mnt="$tmp/disk"
  mkdir "$mnt"
  mount -t tmpfs -o "size=$size" tmpfs "$mnt" 2>"$tmp/mount.err" ||
    skip "$name: cannot mount a tmpfs: $(cat "$tmp/mount.err")"
  on_exit 'umount "$mnt" 2>/dev/null || umount -l "$mnt"'
}
