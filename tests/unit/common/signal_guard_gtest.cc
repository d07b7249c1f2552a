// The one SIGINT/SIGTERM guard (common/signal_guard.hpp): a signal the outer guard caught is not
// lost when an inner guard starts (gen's within run's: a Ctrl-C before the input is generated
// must still end the run), and each guard gives back the handler and hook it found.
#include <gtest/gtest.h>

#include <csignal>

#include "common/signal_guard.hpp"

namespace iobench {
namespace {

int g_outer_hook_calls = 0;
void outer_hook(int /*signal_number*/) {
  ++g_outer_hook_calls;
}

TEST(SignalGuard, AnInnerGuardKeepsWhatTheOuterCaughtAndGivesItsHookBack) {
  g_outer_hook_calls = 0;
  {
    const SignalGuard outer(/*restart=*/false, &outer_hook);
    ASSERT_EQ(caught_signal(), 0);
    ASSERT_EQ(::raise(SIGINT), 0);
    EXPECT_EQ(caught_signal(), SIGINT);
    EXPECT_EQ(g_outer_hook_calls, 1);
    {
      const SignalGuard inner(/*restart=*/true);
      EXPECT_EQ(caught_signal(), SIGINT) << "the inner guard cleared the outer one's signal";
      ASSERT_EQ(::raise(SIGTERM), 0);
      EXPECT_EQ(caught_signal(), SIGTERM);
      EXPECT_EQ(g_outer_hook_calls, 1) << "the inner guard has no hook";
    }
    ASSERT_EQ(::raise(SIGINT), 0);  // the outer handler and hook are back
    EXPECT_EQ(g_outer_hook_calls, 2);
  }
  // A new outermost guard starts clean; the process's own handler is back after it.
  const SignalGuard fresh(/*restart=*/false);
  EXPECT_EQ(caught_signal(), 0);
}

}  // namespace
}  // namespace iobench
