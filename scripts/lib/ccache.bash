# Sourced by scripts/bootstrap and scripts/fuzz: ccache, where the machine has it (bootstrap
# installs it), so that a fresh clone of sources built before (CI's, on the machine that built
# them) compiles nothing. Sets ccache_cmake_args for cmake's configure; IOBENCH_CCACHE=0 turns it
# off. Needs $root.
ccache_cmake_args=()
if [ "${IOBENCH_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  # Paths relative to the clone, and (for -g builds, which would hash it) not its folder, so any
  # clone of the same sources hits the same entries.
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  export CCACHE_SLOPPINESS="time_macros,include_file_mtime,include_file_ctime"
  # No precompiled header: GCC's differs byte for byte between clones, and ccache hashes it, so
  # every file that used it missed in a fresh clone (CI built the tree twice from nothing: 94 % of
  # 1,583 compilations missed, 348 uncacheable, "could not use precompiled header").
  ccache_cmake_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON)
else
  ccache_cmake_args=(-DCMAKE_CXX_COMPILER_LAUNCHER= -DCMAKE_DISABLE_PRECOMPILE_HEADERS=OFF)
fi
