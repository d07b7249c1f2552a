// The unit registry, --list, and the Op base (which splits raw blocks for ops that need lines).
#include <unistd.h>

#include <algorithm>
#include <string>
#include <type_traits>

#include "workers/lines.hpp"
#include "workers/worker.hpp"

namespace iobench::worker {
namespace {

Registry& mutable_registry() {
  static Registry instance;
  return instance;
}

template <class Unit>
const Unit* find_unit(const std::vector<Unit>& units, std::string_view name) {
  for (const Unit& unit : units) {
    if (unit.name == name) return &unit;
  }
  return nullptr;
}

template <class Unit>
void sort_units(std::vector<Unit>& units) {
  std::stable_sort(units.begin(), units.end(),
                   [](const Unit& a, const Unit& b) { return a.order < b.order; });
}

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xf];
      out += kHex[c & 0xf];
    } else {
      out += c;
    }
  }
  out += '"';
}

template <class Unit>
void append_units(std::string& out, const std::vector<Unit>& units, std::string_view kind,
                  bool& first) {
  for (const Unit& unit : units) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += "{\"name\": ";
    std::string name(unit.name);
    if constexpr (std::is_same_v<Unit, OpUnit>) {
      if (unit.takes_arg) name += ":N";  // as written on the command line: field:N
    }
    append_json_string(out, name);
    out += ", \"kind\": ";
    append_json_string(out, kind);
    out += ", \"description\": ";
    append_json_string(out, unit.description);
    out += '}';
  }
}

}  // namespace

const Registry& registry() {
  // Registration happens during static initialisation; the first lookup (from main) sorts.
  static const bool sorted = [] {
    Registry& r = mutable_registry();
    sort_units(r.readers);
    sort_units(r.writers);
    sort_units(r.ops);
    return true;
  }();
  static_cast<void>(sorted);
  return mutable_registry();
}

const ReaderUnit* find_reader(std::string_view name) {
  return find_unit(registry().readers, name);
}
const WriterUnit* find_writer(std::string_view name) {
  return find_unit(registry().writers, name);
}
const OpUnit* find_op(std::string_view name) {
  return find_unit(registry().ops, name);
}

std::string list_json() {
  std::string out = "[";
  bool first = true;
  append_units(out, registry().readers, "reader", first);
  append_units(out, registry().writers, "writer", first);
  append_units(out, registry().ops, "op", first);
  out += "\n]\n";
  return out;
}

RegisterReader::RegisterReader(const ReaderUnit& unit) {
  mutable_registry().readers.push_back(unit);
}
RegisterWriter::RegisterWriter(const WriterUnit& unit) {
  mutable_registry().writers.push_back(unit);
}
RegisterOp::RegisterOp(const OpUnit& unit) {
  mutable_registry().ops.push_back(unit);
}

void note(std::string_view message) {
  std::string line = "iobench-worker: ";
  line += message;
  line += '\n';
  // stderr is unbuffered and best effort: a failed note must not fail the run.
  const ssize_t ignored = ::write(STDERR_FILENO, line.data(), line.size());
  static_cast<void>(ignored);
}

void verbose_note(const Options& options, std::string_view message) {
  if (options.verbose) note(message);
}

Op::Op() = default;
Op::~Op() = default;

void Op::block(std::string_view bytes) {
  if (!splitter_) splitter_ = std::make_unique<LineSplitter>(*this);
  splitter_->feed(bytes);
}

void Op::counted(std::uint64_t, bool) {
  throw RunError("this op cannot take a count made by the reader; use --op count");
}

void Op::end_of_input() {
  if (splitter_) splitter_->finish();
  finish();
}

}  // namespace iobench::worker
