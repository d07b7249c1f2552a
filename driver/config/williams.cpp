#include <algorithm>

#include "driver/config/plan.hpp"

// The round designs of interleaved runs (docs/driver.md, "Order, failures, interrupts").
namespace iobench::config {

std::size_t williams_round_count(std::size_t cells) {
  if (cells == 0) return 1;
  return cells % 2 == 0 ? cells : 2 * cells;
}

// Row i of the square is the first row 0, 1, n-1, 2, n-2, ... plus i (mod n); for odd n rows n
// to 2n-1 are rows 0 to n-1 reversed. One row costs O(n), so planning never holds the square
// (docs/driver.md, "Order, failures, interrupts").
std::vector<std::size_t> williams_round(std::size_t cells, std::size_t round) {
  std::vector<std::size_t> row(cells);
  if (cells == 0) return row;
  const std::size_t shift = round % cells;
  for (std::size_t j = 0; j < cells; ++j) {
    const std::size_t first = j == 0 ? 0 : j % 2 == 1 ? (j + 1) / 2 : cells - j / 2;
    row[j] = (first + shift) % cells;
  }
  if (round % williams_round_count(cells) >= cells) std::reverse(row.begin(), row.end());
  return row;
}

std::vector<std::vector<std::size_t>> williams_rounds(std::size_t cells) {
  std::vector<std::vector<std::size_t>> rounds;
  for (std::size_t i = 0; i < williams_round_count(cells); ++i) {
    rounds.push_back(williams_round(cells, i));
  }
  return rounds;
}

std::vector<std::size_t> twins_round(std::size_t cells, std::size_t round) {
  const std::vector<std::size_t> pairs = williams_round(cells / 2, round);
  std::vector<std::size_t> row;
  row.reserve(cells);
  for (const std::size_t pair : pairs) {
    // Alternating, so that neither build always runs first (after the other's carry-over).
    const std::size_t first = (round + pair) % 2;
    row.push_back(2 * pair + first);
    row.push_back(2 * pair + 1 - first);
  }
  return row;
}

}  // namespace iobench::config
