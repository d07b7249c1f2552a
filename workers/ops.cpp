// Operations: copy (lines straight to the writer), count (lines, a last line without '\n'
// included), field:N (the Nth tab-separated field, 1-based, empty when missing) and split
// (round-robin lines into --outputs files, each optionally through a --compress process).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "common/fd.hpp"
#include "workers/lines.hpp"
#include "workers/process.hpp"
#include "workers/worker.hpp"

namespace iobench::worker {
namespace {

class CopyOp final : public Op {
 public:
  explicit CopyOp(std::unique_ptr<Writer> writer) : writer_(std::move(writer)) {}
  void lines(std::span<const std::string_view> lines) override { writer_->write_lines(lines); }
  void block(std::string_view bytes) override { writer_->write(bytes); }
  void release() override { writer_->release(); }

 protected:
  void finish() override { writer_->finish(); }

 private:
  std::unique_ptr<Writer> writer_;
};

class CountOp final : public Op {
 public:
  explicit CountOp(std::unique_ptr<Writer> writer) : writer_(std::move(writer)) {}
  void lines(std::span<const std::string_view> lines) override { count_ += lines.size(); }
  // Blocks are counted without splitting; a last byte other than '\n' is one more line.
  void block(std::string_view bytes) override {
    if (bytes.empty()) return;
    count_ += count_newlines(bytes.data(), bytes.size());
    open_line_ = bytes.back() != '\n';
  }
  void counted(std::uint64_t newlines, bool open_line) override {
    count_ += newlines;
    open_line_ = open_line;
  }
  void release() override {}

 protected:
  void finish() override {
    const std::string text = std::to_string(count_ + (open_line_ ? 1 : 0)) + "\n";
    writer_->write(text);
    writer_->finish();
  }

 private:
  std::unique_ptr<Writer> writer_;
  std::uint64_t count_ = 0;
  bool open_line_ = false;
};

// The Nth field of each line, one output line per input line, always '\n'-terminated (as cut -f).
// Only '\n' ends a line, so a CRLF line's last field keeps its '\r'.
class FieldOp final : public Op {
 public:
  FieldOp(std::unique_ptr<Writer> writer, std::size_t field)
      : writer_(std::move(writer)), field_(field) {}

  void lines(std::span<const std::string_view> lines) override {
    for (const std::string_view line : lines) one(line);
  }
  void release() override { writer_->release(); }

 protected:
  void finish() override { writer_->finish(); }

 private:
  void one(std::string_view line) {
    const bool terminated = line.back() == '\n';
    const std::string_view body = terminated ? line.substr(0, line.size() - 1) : line;
    std::size_t start = 0;
    for (std::size_t i = 1; i < field_; ++i) {
      const std::size_t tab = body.find('\t', start);
      if (tab == std::string_view::npos) {
        start = body.size() + 1;  // missing: empty
        break;
      }
      start = tab + 1;
    }
    std::string_view field;
    bool last_field = false;
    if (start <= body.size()) {
      const std::size_t tab = body.find('\t', start);
      last_field = tab == std::string_view::npos;
      field = body.substr(start, last_field ? std::string_view::npos : tab - start);
    }
    if (last_field && terminated) {
      writer_->write(line.substr(start));  // the line's own '\n' ends the field: no copy
      return;
    }
    scratch_.assign(field);
    scratch_ += '\n';
    writer_->write(scratch_);
    writer_->release();  // scratch_ changes with the next line
  }

  std::unique_ptr<Writer> writer_;
  std::size_t field_;
  std::string scratch_;
};

// fastqsplitter's case: lines dealt round-robin to N outputs. Output i is PREFIX followed by i
// (from 0), or PREFIX with "{}" replaced by i. With --compress, each output is a pipe into its own
// compressor process whose stdout is the file; the op waits for every compressor and fails if one
// fails.
class SplitOp final : public Op {
 public:
  SplitOp(const Options& options, const WriterUnit& writer) : options_(options) {
    const std::vector<std::string> compress = split_command(options.compress);
    // A compressor that dies early must show up as a write error (EPIPE), not kill us before
    // we can report it.
    if (!compress.empty()) ::signal(SIGPIPE, SIG_IGN);
    for (std::size_t i = 0; i < options.outputs; ++i) {
      Output out;
      out.path = output_path(options.prefix, i);
      UniqueFd file(::open(out.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
      if (!file) throw RunError("cannot create " + out.path + ": " + std::strerror(errno));
      if (compress.empty()) {
        out.fd = std::move(file);
      } else {
        int ends[2];
        if (::pipe2(ends, O_CLOEXEC) != 0)
          throw RunError(std::string("pipe: ") + std::strerror(errno));
        UniqueFd read_end(ends[0]);
        out.fd = UniqueFd(ends[1]);
        apply_pipe_size(out.fd.get(), "compressor " + std::to_string(i), options);
        out.compressor.emplace(spawn_child(compress, read_end.get(), file.get()));
      }
      out.writer = writer.make(out.fd.get(), options);
      outputs_.push_back(std::move(out));
    }
  }

  SplitOp(const SplitOp&) = delete;
  SplitOp& operator=(const SplitOp&) = delete;
  // On an error path: close every pipe, then reap the compressors so none is left behind.
  ~SplitOp() override {
    for (Output& out : outputs_) {
      out.writer.reset();
      out.fd.reset();
    }
    for (Output& out : outputs_) {
      try {
        if (out.compressor) out.compressor->wait();
      } catch (const std::exception&) {  // reaped already: nothing is left behind
      }
    }
  }

  void lines(std::span<const std::string_view> lines) override {
    for (const std::string_view line : lines) {
      outputs_[next_].writer->write(line);
      if (++next_ == outputs_.size()) next_ = 0;
    }
  }
  void release() override {
    for (Output& out : outputs_) out.writer->release();
  }

 protected:
  void finish() override {
    for (Output& out : outputs_) {
      out.writer->finish();
      out.writer.reset();
      out.fd.reset();  // the compressor sees end of file
    }
    for (Output& out : outputs_) {
      if (out.compressor) {
        wait_child(*out.compressor, "compressor '" + options_.compress + "' for " + out.path);
      }
    }
  }

 private:
  struct Output {
    std::string path;
    UniqueFd fd;
    std::optional<child::Helper> compressor;
    std::unique_ptr<Writer> writer;
  };

  static std::string output_path(const std::string& prefix, std::size_t index) {
    const std::size_t at = prefix.find("{}");
    if (at == std::string::npos) return prefix + std::to_string(index);
    return prefix.substr(0, at) + std::to_string(index) + prefix.substr(at + 2);
  }

  const Options& options_;
  std::vector<Output> outputs_;
  std::size_t next_ = 0;
};

const RegisterOp kCopy({"copy",
                        "every line to the writer unchanged: output byte-identical to input", 10,
                        [](const Options& o, const WriterUnit& w, int fd) -> std::unique_ptr<Op> {
                          return std::make_unique<CopyOp>(w.make(fd, o));
                        },
                        false});
const RegisterOp kCount({"count", "the number of lines (a last line without newline counts)", 20,
                         [](const Options& o, const WriterUnit& w, int fd) -> std::unique_ptr<Op> {
                           return std::make_unique<CountOp>(w.make(fd, o));
                         },
                         false});
const RegisterOp kField(
    {"field", "field:N, the Nth tab-separated field of each line (1-based, empty when missing)", 30,
     [](const Options& o, const WriterUnit& w, int fd) -> std::unique_ptr<Op> {
       return std::make_unique<FieldOp>(w.make(fd, o), std::stoul(o.op_arg));
     },
     true});
const RegisterOp kSplit({"split",
                         "lines round-robin into --outputs N files named by --prefix, each "
                         "optionally through --compress CMD",
                         40,
                         [](const Options& o, const WriterUnit& w, int) -> std::unique_ptr<Op> {
                           return std::make_unique<SplitOp>(o, w);
                         },
                         false});

}  // namespace
}  // namespace iobench::worker
