// The system-call seam: the block readers and the syscall writers must survive EINTR, short reads
// and short (partial) writes, and must report real errors. Runs the units in-process with
// sys::ScopedOps injecting the faults.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <random>
#include <string>
#include <system_error>
#include <vector>

#include "common/fd.hpp"
#include "common/sysio.hpp"
#include "tests/unit/workers/test_support.hpp"
#include "workers/worker.hpp"

namespace iobench::worker::testing {
namespace {

// What the fake system calls did, so a test can prove the faults really happened.
struct Faults {
  std::mt19937 rng{7};
  std::size_t max_read = 7;
  std::size_t max_write = 5;
  int eintr_every = 3;  // every Nth call fails with EINTR
  int fail_errno = 0;   // when set, every call fails with it
  long calls = 0;
  long eintrs = 0;
  long short_reads = 0;
  long short_writes = 0;
};
Faults* g_faults = nullptr;

bool inject_eintr() {
  if (g_faults->fail_errno != 0) {
    errno = g_faults->fail_errno;
    return true;
  }
  if (++g_faults->calls % g_faults->eintr_every == 0) {
    ++g_faults->eintrs;
    errno = EINTR;
    return true;
  }
  return false;
}

std::size_t random_cap(std::size_t wanted, std::size_t max) {
  return std::min<std::size_t>(wanted, 1 + g_faults->rng() % max);
}

ssize_t fake_read(int fd, void* buf, std::size_t count) {
  if (inject_eintr()) return -1;
  const std::size_t cap = random_cap(count, g_faults->max_read);
  if (cap < count) ++g_faults->short_reads;
  return ::read(fd, buf, cap);
}

ssize_t fake_write(int fd, const void* buf, std::size_t count) {
  if (inject_eintr()) return -1;
  const std::size_t cap = random_cap(count, g_faults->max_write);
  if (cap < count) ++g_faults->short_writes;
  return ::write(fd, buf, cap);
}

// Writes at most a few bytes of the gathered data, possibly ending inside an iovec.
ssize_t fake_writev(int fd, const struct iovec* iov, int iovcnt) {
  if (inject_eintr()) return -1;
  std::string gathered;
  for (int i = 0; i < iovcnt; ++i)
    gathered.append(static_cast<const char*>(iov[i].iov_base), iov[i].iov_len);
  const std::size_t cap = random_cap(gathered.size(), g_faults->max_write);
  if (cap < gathered.size()) ++g_faults->short_writes;
  return ::write(fd, gathered.data(), cap);
}

struct Case {
  std::string reader;
  std::string writer;
  std::string op;
};

// Names the case in test listings (ctest shows it) instead of its bytes.
void PrintTo(const Case& c, std::ostream* out) {
  *out << c.reader << "+" << c.writer << "+" << c.op;
}

class SeamTest : public ::testing::TestWithParam<Case> {
 protected:
  // Runs reader x writer x op in-process from `input_path` into a fresh file; returns its bytes.
  std::string run_units(const std::string& input_path, const Case& c) {
    Options o;
    o.reader = c.reader;
    o.writer = c.writer;
    const std::size_t colon = c.op.find(':');
    o.op = c.op.substr(0, colon);
    if (colon != std::string::npos) o.op_arg = c.op.substr(colon + 1);
    const std::string out_path = (dir_ / "out").string();
    UniqueFd in(::open(input_path.c_str(), O_RDONLY | O_CLOEXEC));
    UniqueFd out(::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!in || !out) throw std::runtime_error("cannot open test files");
    Input input{in.get(), input_path, true};
    std::unique_ptr<Op> op = find_op(o.op)->make(o, *find_writer(o.writer), out.get());
    std::unique_ptr<Reader> reader = find_reader(o.reader)->make(o);
    reader->run(input, *op);
    op->end_of_input();
    return read_file(out_path);
  }

  TempDir dir_;
};

std::string seam_corpus() {
  std::string text;
  std::mt19937 rng(3);
  for (int i = 0; i < 400; ++i) {
    const std::size_t length = rng() % 40;
    for (std::size_t j = 0; j < length; ++j) text += "ab\tc\0d\r\xff"[rng() % 8];
    text += '\n';
  }
  text += "last line without newline\tx";
  return text;
}

TEST_P(SeamTest, SurvivesEintrShortReadsAndShortWrites) {
  const Case c = GetParam();
  const std::string text = seam_corpus();
  const std::string input = (dir_ / "in").string();
  write_file(input, text);
  std::string expected = text;
  if (c.op == "count") expected = reference_count(text);
  if (c.op == "field:2") expected = reference_field(text, 2);

  Faults faults;
  g_faults = &faults;
  std::string output;
  {
    sys::ScopedOps scoped(sys::Ops{&fake_read, &fake_write, &fake_writev});
    output = run_units(input, c);
  }
  g_faults = nullptr;
  EXPECT_EQ(output, expected);
  EXPECT_GT(faults.eintrs, 0);
  EXPECT_GT(faults.short_reads, 0);
  if (c.op != "count") {
    EXPECT_GT(faults.short_writes, 0);
  }
}

TEST_P(SeamTest, ReportsReadAndWriteErrors) {
  const Case c = GetParam();
  const std::string input = (dir_ / "in").string();
  write_file(input, seam_corpus());
  Faults faults;
  faults.fail_errno = EIO;
  g_faults = &faults;
  {
    sys::ScopedOps scoped(sys::Ops{&fake_read, &fake_write, &fake_writev});
    try {
      run_units(input, c);
      ADD_FAILURE() << "no error reported";
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code().value(), EIO) << e.what();
    }
  }
  // Only the writes fail: the error must still surface (from a flush at the latest).
  {
    const auto failing_write = [](int, const void*, std::size_t) -> ssize_t {
      errno = ENOSPC;
      return -1;
    };
    const auto failing_writev = [](int, const struct iovec*, int) -> ssize_t {
      errno = ENOSPC;
      return -1;
    };
    sys::ScopedOps scoped(sys::Ops{&::read, failing_write, failing_writev});
    try {
      run_units(input, c);
      ADD_FAILURE() << "no write error reported";
    } catch (const std::system_error& e) {
      EXPECT_EQ(e.code().value(), ENOSPC) << e.what();
    }
  }
  g_faults = nullptr;
}

std::vector<Case> seam_cases() {
  std::vector<Case> cases;
  // The units that call the kernel through sys::ops(); the others go through libc or liburing.
  for (const char* reader : {"read", "chunk"}) {
    for (const char* writer : {"raw", "buffered", "writev", "fmt"}) {
      for (const char* op : {"copy", "count", "field:2"}) cases.push_back({reader, writer, op});
    }
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(SyscallUnits, SeamTest, ::testing::ValuesIn(seam_cases()),
                         [](const auto& test) {
                           std::string name =
                               test.param.reader + "_" + test.param.writer + "_" + test.param.op;
                           std::replace(name.begin(), name.end(), ':', '_');
                           return name;
                         });

}  // namespace
}  // namespace iobench::worker::testing
