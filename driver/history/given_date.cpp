#include "driver/history/given_date.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstddef>

namespace iobench::history {
namespace {

// The number of `width` digits at `text[at]`, or -1 when they are not all digits (or not there).
int digits_at(std::string_view text, std::size_t at, std::size_t width) {
  if (at + width > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

// "YYYY-MM-DD" at the start of `text`: the day, or nullopt when it is not one or does not exist.
std::optional<std::chrono::sys_days> day_of(std::string_view text) {
  const int year = digits_at(text, 0, 4);
  const int month = digits_at(text, 5, 2);
  const int day = digits_at(text, 8, 2);
  if (year < 1 || month < 0 || day < 0 || text[4] != '-' || text[7] != '-') return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year{year},
                                         std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  if (!date.ok()) return std::nullopt;
  return std::chrono::sys_days(date);
}

// The zone after the time ("Z", "+02:00", "-05:30"): its offset from UTC, or nullopt.
std::optional<std::chrono::minutes> offset_of(std::string_view zone) {
  if (zone == "Z") return std::chrono::minutes(0);
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':') return std::nullopt;
  const int hours = digits_at(zone, 1, 2);
  const int minutes = digits_at(zone, 4, 2);
  if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59) return std::nullopt;
  const std::chrono::minutes offset(hours * 60 + minutes);
  return zone[0] == '-' ? -offset : offset;
}

// "THH:MM:SS", a fraction of a second and the zone, after the day: the UTC time they name.
std::optional<std::chrono::sys_seconds> time_of(std::chrono::sys_days day, std::string_view rest) {
  const int hour = digits_at(rest, 1, 2);
  const int minute = digits_at(rest, 4, 2);
  const int second = digits_at(rest, 7, 2);
  if (rest.size() < 9 || rest[0] != 'T' || rest[3] != ':' || rest[6] != ':' || hour < 0 ||
      hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return std::nullopt;
  }
  std::size_t zone_at = 9;
  if (zone_at < rest.size() && rest[zone_at] == '.') {
    const std::size_t end = rest.find_first_not_of("0123456789", zone_at + 1);
    if (end == zone_at + 1 || end == std::string_view::npos) return std::nullopt;
    zone_at = end;
  }
  const auto offset = offset_of(rest.substr(zone_at));
  if (!offset) return std::nullopt;
  return day + std::chrono::hours(hour) + std::chrono::minutes(minute) +
         std::chrono::seconds(second) - *offset;
}

}  // namespace

std::optional<std::string> parse_given_date(std::string_view text) {
  if (text.size() < 10) return std::nullopt;
  const auto day = day_of(text);
  if (!day) return std::nullopt;
  std::chrono::sys_seconds utc = *day;
  if (text.size() > 10) {
    const auto time = time_of(*day, text.substr(10));
    if (!time) return std::nullopt;
    utc = *time;
  }
  const auto utc_day = std::chrono::floor<std::chrono::days>(utc);
  const std::chrono::year_month_day date(utc_day);
  const std::chrono::hh_mm_ss time(utc - utc_day);
  const int year = static_cast<int>(date.year());
  if (year < 1 || year > 9999) return std::nullopt;  // an offset took it out of four digits
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", year,
                     static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                     time.hours().count(), time.minutes().count(), time.seconds().count());
}

std::string given_date_refusal(std::string_view text) {
  return fmt::format(
      "history add --date '{}': not a date; give it in ISO 8601 as 2026-12-01T10:00:00Z (UTC), "
      "2026-12-01T12:00:00+02:00 (converted to UTC) or 2026-12-01 (midnight UTC)",
      text);
}

}  // namespace iobench::history
