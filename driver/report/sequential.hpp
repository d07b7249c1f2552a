#pragma once
// How the sequential rule's decisions are said (the rule itself: stats/sequential.hpp).
#include <string>
#include <string_view>

#include "driver/stats/sequential.hpp"

namespace iobench::report {

// "different", "equivalent", "budget", "undecided" (kContinue).
std::string_view to_string(stats::Decision decision);

// Which rule judged: "sequential rule", or "sequential rule on round pairs" for a paired plan.
std::string_view rule_name(const stats::SequentialPlan& plan);

// How `bench` says it: "decided: different after 14 runs", "decided: equivalent within ±1 %
// after 20 runs", "budget of 20 runs spent, undecided".
std::string decision_phrase(const stats::SequentialResult& result,
                            const stats::SequentialPlan& plan);

}  // namespace iobench::report
