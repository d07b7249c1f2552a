#include "driver/run/task_exits.hpp"

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <set>

#include "common/fd.hpp"
#include "common/read_file.hpp"

namespace iobench::run {
namespace {

std::string fmt_errno(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

// Netlink's alignment, without its macros (their int arithmetic trips -Wsign-conversion).
constexpr std::size_t align4(std::size_t n) {
  return (n + 3) & ~std::size_t{3};
}
constexpr std::size_t kMessageHeader = align4(sizeof(nlmsghdr));    // NLMSG_HDRLEN
constexpr std::size_t kGenericHeader = align4(sizeof(genlmsghdr));  // GENL_HDRLEN
constexpr std::size_t kAttributeHeader = align4(sizeof(nlattr));    // NLA_HDRLEN

// taskstats grew ac_tgid in version 13; older kernels send a shorter record without it.
constexpr std::size_t kTgidEnd = offsetof(taskstats, ac_tgid) + sizeof(taskstats::ac_tgid);
constexpr std::size_t kPpidEnd = offsetof(taskstats, ac_ppid) + sizeof(taskstats::ac_ppid);

// The attributes in `bytes`, each handed to `each(type, payload)`; false when one is malformed.
template <typename Each>
bool for_each_attribute(std::span<const std::uint8_t> bytes, Each each) {
  std::size_t at = 0;
  while (bytes.size() - at >= kAttributeHeader) {
    nlattr attribute{};
    std::memcpy(&attribute, bytes.data() + at, sizeof attribute);
    if (attribute.nla_len < kAttributeHeader || attribute.nla_len > bytes.size() - at) return false;
    each(attribute.nla_type & NLA_TYPE_MASK,
         bytes.subspan(at + kAttributeHeader, attribute.nla_len - kAttributeHeader));
    at = std::min(bytes.size(), at + align4(attribute.nla_len));
  }
  return true;
}

// The messages in `bytes`, each handed to `each(header, payload after the generic header)`; false
// when one is malformed.
template <typename Each>
bool for_each_message(std::span<const std::uint8_t> bytes, Each each) {
  std::size_t at = 0;
  while (bytes.size() - at >= kMessageHeader) {
    nlmsghdr header{};
    std::memcpy(&header, bytes.data() + at, sizeof header);
    if (header.nlmsg_len < kMessageHeader || header.nlmsg_len > bytes.size() - at) return false;
    each(header, bytes.subspan(at + kMessageHeader, header.nlmsg_len - kMessageHeader));
    at = std::min(bytes.size(), at + align4(header.nlmsg_len));
  }
  return true;
}

std::optional<TaskExit> task_exit_of(std::span<const std::uint8_t> stats) {
  if (stats.size() < kPpidEnd) return std::nullopt;
  taskstats record{};
  std::memcpy(&record, stats.data(), std::min(stats.size(), sizeof record));
  TaskExit exit;
  exit.pid = static_cast<pid_t>(record.ac_pid);
  exit.ppid = static_cast<pid_t>(record.ac_ppid);
  exit.tgid = record.version >= 13 && stats.size() >= kTgidEnd ? static_cast<pid_t>(record.ac_tgid)
                                                               : exit.pid;
  exit.cpu_delay_ns = record.cpu_delay_total;
  exit.blkio_delay_ns = record.blkio_delay_total;
  exit.on_cpu_ns = record.cpu_run_virtual_total;
  exit.lifetime_ns = record.ac_etime * 1000;
  return exit;
}

// A generic netlink request of `command` with one string attribute; true when sent.
bool send_request(int fd, std::uint16_t family, std::uint8_t command, std::uint16_t attribute_type,
                  const std::string& attribute) {
  const std::size_t attribute_len = kAttributeHeader + attribute.size() + 1;
  std::vector<std::uint8_t> message(kMessageHeader + kGenericHeader + align4(attribute_len), 0);
  nlmsghdr header{};
  header.nlmsg_len = static_cast<std::uint32_t>(message.size());
  header.nlmsg_type = family;
  header.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
  std::memcpy(message.data(), &header, sizeof header);
  genlmsghdr generic{};
  generic.cmd = command;
  generic.version = 1;
  std::memcpy(message.data() + kMessageHeader, &generic, sizeof generic);
  const nlattr nla{static_cast<std::uint16_t>(attribute_len), attribute_type};
  std::uint8_t* const at = message.data() + kMessageHeader + kGenericHeader;
  std::memcpy(at, &nla, sizeof nla);
  std::memcpy(at + kAttributeHeader, attribute.c_str(), attribute.size() + 1);
  sockaddr_nl kernel{};
  kernel.nl_family = AF_NETLINK;
  return ::sendto(fd, message.data(), message.size(), 0, reinterpret_cast<sockaddr*>(&kernel),
                  sizeof kernel) == static_cast<ssize_t>(message.size());
}

// The answer to a request: 0 for an ack (and family_out set from CTRL_CMD_GETFAMILY's reply, which
// comes before it), -errno for an error.
int receive_answer(int fd, std::uint16_t& family_out) {
  std::vector<std::uint8_t> buffer(16384);
  for (int reads = 0; reads < 64; ++reads) {
    const ssize_t n = ::recv(fd, buffer.data(), buffer.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -errno;
    std::optional<int> answer;
    for_each_message(
        {buffer.data(), static_cast<std::size_t>(n)},
        [&](const nlmsghdr& header, std::span<const std::uint8_t> payload) {
          if (header.nlmsg_type == NLMSG_ERROR && payload.size() >= sizeof(int)) {
            int error = 0;
            std::memcpy(&error, payload.data(), sizeof error);
            answer = error;
          } else if (header.nlmsg_type == GENL_ID_CTRL && payload.size() >= kGenericHeader) {
            for_each_attribute(
                payload.subspan(kGenericHeader),
                [&](int type, std::span<const std::uint8_t> value) {
                  if (type == CTRL_ATTR_FAMILY_ID && value.size() >= sizeof(std::uint16_t))
                    std::memcpy(&family_out, value.data(), sizeof(std::uint16_t));
                });
          }
        });
    if (answer) return *answer;
  }
  return -EPROTO;
}

}  // namespace

std::uint64_t possible_wait_ns(std::uint64_t run_delay_ns, std::uint64_t lifetime_ns,
                               std::uint64_t on_cpu_ns) {
  return std::min(run_delay_ns, lifetime_ns > on_cpu_ns ? lifetime_ns - on_cpu_ns : 0);
}

std::optional<TreeWait> tree_wait(std::span<const TaskExit> exits, pid_t root,
                                  bool block_io_accounted) {
  std::set<pid_t> processes{root};
  std::vector<bool> counted(exits.size(), false);
  // A child exits before its parent: walk until no report joins, each pass adding the processes
  // whose parent is already in the tree.
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < exits.size(); ++i) {
      if (counted[i] || (!processes.count(exits[i].tgid) && !processes.count(exits[i].ppid)))
        continue;
      counted[i] = true;
      grew = true;
      processes.insert(exits[i].tgid);
    }
  }
  TreeWait wait;
  bool root_seen = false;
  std::uint64_t cpu_ns = 0;
  std::uint64_t block_io_ns = 0;
  for (std::size_t i = 0; i < exits.size(); ++i) {
    if (!counted[i]) continue;
    root_seen = root_seen || exits[i].pid == root;
    cpu_ns += possible_wait_ns(exits[i].cpu_delay_ns, exits[i].lifetime_ns, exits[i].on_cpu_ns);
    block_io_ns += exits[i].blkio_delay_ns;
    ++wait.tasks;
  }
  if (!root_seen) return std::nullopt;
  wait.cpu_s = static_cast<double>(cpu_ns) * 1e-9;
  if (block_io_accounted) wait.block_io_s = static_cast<double>(block_io_ns) * 1e-9;
  return wait;
}

std::vector<TaskExit> parse_task_exit_messages(std::span<const std::uint8_t> bytes) {
  std::vector<TaskExit> exits;
  const auto stats = [&exits](int type, std::span<const std::uint8_t> value) {
    if (type != TASKSTATS_TYPE_STATS) return;
    if (const auto exit = task_exit_of(value)) exits.push_back(*exit);
  };
  const auto aggregate = [&stats](int type, std::span<const std::uint8_t> value) {
    if (type == TASKSTATS_TYPE_AGGR_PID) for_each_attribute(value, stats);
  };
  for_each_message(bytes, [&](const nlmsghdr&, std::span<const std::uint8_t> payload) {
    if (payload.size() >= kGenericHeader)
      for_each_attribute(payload.subspan(kGenericHeader), aggregate);
  });
  return exits;
}

std::unique_ptr<TaskExitListener> TaskExitListener::open(std::string& why) {
  UniqueFd fd(::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC));
  if (!fd) {
    why = fmt_errno("socket(NETLINK_GENERIC)");
    return nullptr;
  }
  // Every task that exits on the machine is reported, not only the run's: room for a busy
  // machine's worth between two reads. SO_RCVBUFFORCE passes the system's limit as root.
  const int buffer_bytes = 8 << 20;
  if (::setsockopt(fd.get(), SOL_SOCKET, SO_RCVBUFFORCE, &buffer_bytes, sizeof buffer_bytes) != 0)
    ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVBUF, &buffer_bytes, sizeof buffer_bytes);
  sockaddr_nl local{};
  local.nl_family = AF_NETLINK;
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
    why = fmt_errno("bind(NETLINK_GENERIC)");
    return nullptr;
  }
  std::uint16_t family = 0;
  if (!send_request(fd.get(), GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
                    TASKSTATS_GENL_NAME) ||
      receive_answer(fd.get(), family) != 0 || family == 0) {
    why = "the kernel has no taskstats family";
    return nullptr;
  }
  // The CPUs that may ever run a task, as the kernel spells them ("0-1").
  std::string cpus = read_file_bytes_if_present("/sys/devices/system/cpu/possible").value_or("");
  while (!cpus.empty() && (cpus.back() == '\n' || cpus.back() == ' ')) cpus.pop_back();
  if (cpus.empty()) {
    why = "/sys/devices/system/cpu/possible says no CPUs";
    return nullptr;
  }
  std::uint16_t unused = 0;
  if (!send_request(fd.get(), family, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK,
                    cpus)) {
    why = fmt_errno("taskstats: register");
    return nullptr;
  }
  if (const int error = receive_answer(fd.get(), unused); error != 0) {
    why = std::string("taskstats: ") + std::strerror(-error) +
          (error == -EPERM ? " (it needs CAP_NET_ADMIN, as root)" : "");
    return nullptr;
  }
  const auto delayacct = read_file_bytes_if_present("/proc/sys/kernel/task_delayacct");
  const bool block_io = delayacct && !delayacct->empty() && delayacct->front() == '1';
  return std::unique_ptr<TaskExitListener>(
      new TaskExitListener(fd.release(), family, std::move(cpus), block_io));
}

WaitSource open_wait_source() {
  WaitSource source;
  std::string why;
  source.listener = TaskExitListener::open(why);
  source.scope = source.listener ? "tree" : "worker: " + why;
  return source;
}

TaskExitListener::TaskExitListener(int fd, std::uint16_t family, std::string cpus,
                                   bool block_io_accounted)
    : fd_(fd), family_(family), cpus_(std::move(cpus)), block_io_accounted_(block_io_accounted) {}

TaskExitListener::~TaskExitListener() {
  // Without it the kernel drops the listener at its next failed send to the closed socket.
  send_request(fd_, family_, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK, cpus_);
  ::close(fd_);
}

std::optional<std::vector<TaskExit>> TaskExitListener::take() const {
  std::vector<TaskExit> exits;
  std::vector<std::uint8_t> buffer(1 << 16);
  bool lost = false;
  for (;;) {
    const ssize_t n = ::recv(fd_, buffer.data(), buffer.size(), MSG_DONTWAIT);
    if (n > 0) {
      const auto more = parse_task_exit_messages({buffer.data(), static_cast<std::size_t>(n)});
      exits.insert(exits.end(), more.begin(), more.end());
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    // ENOBUFS: the buffer overflowed since the last read and reports were dropped. The
    // socket goes on receiving: the next window is whole again.
    if (n < 0 && errno == ENOBUFS) {
      lost = true;
      continue;
    }
    break;  // EAGAIN: nothing more now
  }
  if (lost) return std::nullopt;
  return exits;
}

}  // namespace iobench::run
