# Sourced by the fault tests that need a small full-able disk. mount_small_tmpfs NAME SIZE makes
# $tmp (a scratch folder) and mounts a tmpfs of SIZE at $mnt=$tmp/disk, unmounted and removed on
# exit. Without root, or where mounting is refused, the test is skipped with the reason (exit 0).
mount_small_tmpfs() {
  local name=$1 size=$2
  if [ "$(id -u)" -ne 0 ]; then echo "SKIP: $name needs root to mount a tmpfs"; exit 0; fi
  tmp=$(mktemp -d)
  mnt="$tmp/disk"
  mkdir "$mnt"
  if ! mount -t tmpfs -o "size=$size" tmpfs "$mnt" 2>"$tmp/mount.err"; then
    echo "SKIP: $name: cannot mount a tmpfs: $(cat "$tmp/mount.err")"
    rm -rf "$tmp"
    exit 0
  fi
  trap 'umount "$mnt" 2>/dev/null || umount -l "$mnt"; rm -rf "$tmp"' EXIT
}
