// Store::load: everything the analyses read, fetched in batches (docs/history.md).
#include <fmt/format.h>

#include <span>
#include <variant>

#include "driver/history/run_columns.hpp"
#include "driver/history/store_impl.hpp"

namespace iobench::history {
namespace {

constexpr std::size_t kBatch = 4096;

template <typename T>
std::optional<T> optional_of(const T& value, soci::indicator indicator) {
  return indicator == soci::i_ok ? std::optional<T>(value) : std::nullopt;
}

std::optional<std::string> optional_text(const soci::row& row, std::size_t i) {
  return row.get_indicator(i) == soci::i_ok ? std::optional<std::string>(row.get<std::string>(i))
                                            : std::nullopt;
}

std::optional<double> optional_real(const soci::row& row, std::size_t i) {
  return row.get_indicator(i) == soci::i_ok ? std::optional<double>(row.get<double>(i))
                                            : std::nullopt;
}

// Whole numbers come back as int or long long depending on the backend and the value.
long long whole(const soci::row& row, std::size_t i) {
  switch (row.get_properties(i).get_data_type()) {
    case soci::dt_integer:
      return row.get<int>(i);
    case soci::dt_long_long:
      return row.get<long long>(i);
    case soci::dt_unsigned_long_long:
      return static_cast<long long>(row.get<unsigned long long>(i));
    case soci::dt_double:
      return static_cast<long long>(row.get<double>(i));
    default:
      return std::stoll(row.get<std::string>(i));
  }
}

// Column i of `row` into `field`, by the field's type.
void get(const soci::row& row, std::size_t i, std::string& field) {
  field = row.get<std::string>(i);
}
void get(const soci::row& row, std::size_t i, std::int64_t& field) {
  field = whole(row, i);
}
void get(const soci::row& row, std::size_t i, std::optional<std::string>& field) {
  field = optional_text(row, i);
}
void get(const soci::row& row, std::size_t i, std::optional<double>& field) {
  field = optional_real(row, i);
}
void get(const soci::row& row, std::size_t i, std::optional<std::int64_t>& field) {
  field.reset();
  if (row.get_indicator(i) == soci::i_ok) field = whole(row, i);
}
void get(const soci::row& row, std::size_t i, std::optional<bool>& field) {
  field.reset();
  if (row.get_indicator(i) == soci::i_ok) field = whole(row, i) != 0;
}

void load_runs(Store::Impl& impl, HistoryData& data) {
  const soci::rowset<soci::row> rows = impl.sql.prepare << runs_select_sql();
  const std::span<const RunColumn> columns = run_columns();
  for (const soci::row& row : rows) {
    StoredRun run;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      std::visit([&](auto field) { get(row, i, field(run)); }, columns[i].field);
    }
    data.runs.push_back(std::move(run));
  }
}

void load_series(Store::Impl& impl, HistoryData& data) {
  const soci::rowset<soci::row> rows =
      impl.sql.prepare
      << "SELECT series_id, series_hash, test, input, sink, cache_mode, counters,"
         " definition_hash, verified, input_identity, host_class, tool, unit, direction"
         " FROM series ORDER BY series_id";
  for (const soci::row& row : rows) {
    StoredSeries series;
    series.series_id = whole(row, 0);
    series.series_hash = row.get<std::string>(1);
    SeriesKey& key = series.key;
    key.test = row.get<std::string>(2);
    key.input = row.get<std::string>(3);
    key.sink = row.get<std::string>(4);
    key.cache_mode = row.get<std::string>(5);
    key.counters = row.get<std::string>(6);
    key.definition_hash = row.get<std::string>(7);
    key.verified = whole(row, 8) != 0;
    key.input_identity = row.get<std::string>(9);
    key.host_class = row.get<std::string>(10);
    key.tool = row.get<std::string>(11);
    key.unit = row.get<std::string>(12);
    key.direction = row.get<std::string>(13);
    data.series.push_back(std::move(series));
  }
}

void load_acks(Store::Impl& impl, HistoryData& data) {
  const soci::rowset<soci::row> rows =
      impl.sql.prepare << "SELECT change_id, series_hash, run_hash, why, who, acked_at FROM acks"
                          " ORDER BY acked_at, change_id";
  for (const soci::row& row : rows) {
    data.acks.push_back(Ack{row.get<std::string>(0), row.get<std::string>(1),
                            row.get<std::string>(2), row.get<std::string>(3),
                            row.get<std::string>(4), row.get<std::string>(5)});
  }
}

// One batch of samples as SOCI's bulk intos.
struct SampleBatch : SampleColumnVectors {
  void resize(std::size_t n);
  [[nodiscard]] StoredSample at(std::size_t i) const;
};

void SampleBatch::resize(std::size_t n) {
  for_each_column([n](std::string_view, auto& values, auto* nulls) {
    values.resize(n);
    if (nulls != nullptr) nulls->resize(n);
  });
}

StoredSample SampleBatch::at(std::size_t i) const {
  StoredSample s;
  s.run_id = run_id[i];
  s.series_id = series_id[i];
  s.repeat = repeat_no[i];
  s.status = static_cast<runfile::RunStatus>(status[i]);
  s.exit_code = optional_of(exit_code[i], exit_code_null[i]);
  // An imported value is kept exactly; iobench's own are whole microseconds.
  s.elapsed_s = value_null[i] == soci::i_ok ? value[i] : static_cast<double>(elapsed_us[i]) / 1e6;
  s.user_s = static_cast<double>(user_us[i]) / 1e6;
  s.system_s = static_cast<double>(system_us[i]) / 1e6;
  s.cpu_pct = cpu_pct_tenths[i] / 10.0;
  s.max_rss_kib = max_rss_kib[i];
  s.minflt = minflt[i];
  s.majflt = majflt[i];
  s.nvcsw = nvcsw[i];
  s.nivcsw = nivcsw[i];
  s.inblock = inblock[i];
  s.oublock = oublock[i];
  if (bytes_out_null[i] == soci::i_ok) s.bytes_out = static_cast<std::uint64_t>(bytes_out[i]);
  if (cache_pct_null[i] == soci::i_ok) s.cache_pct = cache_pct_tenths[i] / 10.0;
  if (output_hash_null[i] == soci::i_ok) s.output_hash = static_cast<std::uint64_t>(output_hash[i]);
  if (row_host_null[i] == soci::i_ok) s.host = row_host[i];
  for (std::size_t c = 0; c < runfile::kCounterCount; ++c) {
    if (counters_null[c][i] == soci::i_ok)
      s.counters[c] = static_cast<std::uint64_t>(counters[c][i]);
  }
  if (counted_pct_null[i] == soci::i_ok) s.counted_pct = counted_pct[i] / 10.0;
  s.summary_n = optional_of<std::int64_t>(summary_n[i], summary_n_null[i]);
  s.summary_low = optional_of(summary_low[i], summary_low_null[i]);
  s.summary_high = optional_of(summary_high[i], summary_high_null[i]);
  return s;
}

void load_samples(Store::Impl& impl, HistoryData& data) {
  SampleBatch b;
  b.resize(kBatch);
  soci::statement statement(impl.sql);
  b.for_each_column([&statement](std::string_view, auto& values, auto* nulls) {
    if (nulls != nullptr) {
      statement.exchange(soci::into(values, *nulls));
    } else {
      statement.exchange(soci::into(values));
    }
  });
  statement.alloc();
  statement.prepare(fmt::format("SELECT {} FROM samples", b.column_list()));
  statement.define_and_bind();
  statement.execute();
  while (statement.fetch()) {
    for (std::size_t i = 0; i < b.run_id.size(); ++i) data.samples.push_back(b.at(i));
    b.resize(kBatch);
  }
}

}  // namespace

HistoryData Store::load() {
  try {
    HistoryData data;
    load_runs(*impl_, data);
    load_series(*impl_, data);
    load_samples(*impl_, data);
    load_acks(*impl_, data);
    return data;
  } catch (...) {
    rethrow_as_store_error(impl_->location, "cannot read the history store");
  }
}

}  // namespace iobench::history
