// `history add --date`: ISO 8601 in UTC, with an offset (converted) or as a plain date, to the
// second as the time axis holds it; anything else refused (docs/history.md, "Adding runs").
#include <gtest/gtest.h>

#include "driver/history/given_date.hpp"

namespace iobench::history {
namespace {

TEST(GivenDate, UtcIsKeptToTheSecond) {
  EXPECT_EQ(parse_given_date("2026-12-01T10:00:00Z"), "2026-12-01T10:00:00Z");
  EXPECT_EQ(parse_given_date("2026-12-01T10:00:59.999Z"), "2026-12-01T10:00:59Z");
  EXPECT_EQ(parse_given_date("2026-12-01T10:00:00+00:00"), "2026-12-01T10:00:00Z");
  EXPECT_EQ(parse_given_date("2028-02-29T23:59:59Z"), "2028-02-29T23:59:59Z");  // a leap day
}

TEST(GivenDate, APlainDateIsItsMidnightUtc) {
  EXPECT_EQ(parse_given_date("2026-12-01"), "2026-12-01T00:00:00Z");
}

TEST(GivenDate, AnOffsetIsConvertedToUtcAcrossDaysMonthsAndYears) {
  EXPECT_EQ(parse_given_date("2026-12-01T12:00:00+02:00"), "2026-12-01T10:00:00Z");
  EXPECT_EQ(parse_given_date("2026-12-01T01:30:00+02:00"), "2026-11-30T23:30:00Z");
  EXPECT_EQ(parse_given_date("2026-12-31T20:00:00-05:30"), "2027-01-01T01:30:00Z");
  EXPECT_EQ(parse_given_date("2026-03-01T00:15:00.5+01:00"), "2026-02-28T23:15:00Z");
  EXPECT_EQ(parse_given_date("2026-12-01T10:00:00-00:00"), "2026-12-01T10:00:00Z");
}

TEST(GivenDate, AnythingElseIsRefused) {
  for (const char* text : {"",
                           "yesterday",
                           "2026-12-01T10:00:00",  // no zone: its UTC time is unknown
                           "2026-12-01 10:00:00Z",
                           "2026-12-01T10:00Z",
                           "2026-12-1",
                           "26-12-01",
                           "2026/12/01",
                           "2026-13-01",
                           "2026-02-29",
                           "2026-04-31",
                           "2026-00-10",
                           "0000-01-01",
                           "2026-12-01T24:00:00Z",
                           "2026-12-01T10:60:00Z",
                           "2026-12-01T10:00:60Z",
                           "2026-12-01T10:00:00+2:00",
                           "2026-12-01T10:00:00+0200",
                           "2026-12-01T10:00:00+24:00",
                           "2026-12-01T10:00:00+02:60",
                           "2026-12-01T10:00:00.Z",
                           "2026-12-01T10:00:00.5",
                           "2026-12-01T10:00:00ZZ",
                           "2026-12-01Z",
                           "2026-12-01 ",
                           " 2026-12-01",
                           "0001-01-01T00:30:00+01:00",     // before year 1 in UTC
                           "9999-12-31T23:30:00-01:00"}) {  // after year 9999 in UTC
    EXPECT_EQ(parse_given_date(text), std::nullopt) << text;
  }
}

TEST(GivenDate, TheRefusalIsOneLineNamingTheValueAndTheForms) {
  const std::string line = given_date_refusal("yesterday");
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find("--date 'yesterday'"), std::string::npos) << line;
  EXPECT_NE(line.find("2026-12-01T10:00:00Z"), std::string::npos) << line;
  EXPECT_NE(line.find("+02:00"), std::string::npos) << line;
}

}  // namespace
}  // namespace iobench::history
