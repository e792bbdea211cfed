// The storage of the FIFOs deepened along a partial-sum chain, summed over the hops in closed form
// (modeling/fifo_storage.hpp), against the per-FIFO figures added one hop at a time.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>

#include "../../src/modeling/fifo_storage.hpp"
#include "sadsl/model/expr.hpp"
#include "sadsl/modeling/performance_model.hpp"


using expr = sadsl::model::expr;

namespace {

struct fifo_sums {
  double bram18k = 0, ff = 0;
};

// The per-FIFO figures (modeling/performance_model.hpp) of every hop lo..hi, one by one.
fifo_sums one_by_one(int64_t bits, int64_t step, int64_t lo, int64_t hi) {
  fifo_sums s;
  for (int64_t h = lo; h <= hi; ++h) {
    int64_t depth = 2 + h * step;
    s.bram18k += static_cast<double>(sadsl::fifo_bram18k(bits, depth));
    s.ff += static_cast<double>(sadsl::fifo_ff(bits, depth) - sadsl::fifo_ff(bits, 2));
  }
  return s;
}

}  // namespace

TEST_CASE("deep FIFOs: block RAM and flip-flops summed over the hops equal the FIFOs' own, at every threshold", "[modeling]") {
  expr bits = expr::parameter(0, "bits"), step = expr::parameter(1, "step"), lo = expr::parameter(2, "lo"),
       hi = expr::parameter(3, "hi");
  expr bram = sadsl::modeling::deep_fifos_bram18k(bits, step, lo, hi), ff = sadsl::modeling::deep_fifos_ff(bits, step, lo, hi);
  std::mt19937_64 random(11);
  auto pick = [&](int64_t a, int64_t b) { return std::uniform_int_distribution<int64_t>(a, b)(random); };
  int checked = 0;
  // Widths around the 36-bit block width and the 256- and 512-bit thresholds; steps that put a
  // depth exactly at 512 places, at 1024 / bits and at 512 / bits (27 x 19 = 513, 25 x 41 = 1025).
  for (int64_t b : {8, 16, 19, 25, 27, 32, 36, 37, 41, 64, 72, 128, 255, 256, 257, 512, 1024})
    for (int64_t st : {1, 2, 3, 7, 30, 127, 255, 256, 510, 511, 512, 1000})
      for (int n = 0; n < 6; ++n) {
        int64_t l = pick(0, 4), h = pick(l - 2, 45);
        fifo_sums want = one_by_one(b, st, l, h);
        std::vector<double> x{double(b), double(st), double(l), double(h)};
        INFO("bits " << b << " step " << st << " hops " << l << ".." << h);
        CHECK(sadsl::model::evaluate(bram, x) == want.bram18k);
        CHECK(sadsl::model::evaluate(ff, x) == want.ff);
        ++checked;
      }
  CHECK(checked == 17 * 12 * 6);
}

TEST_CASE("deep FIFOs at one place: written without a sum, equal to the FIFO's own at every threshold", "[modeling]") {
  expr bits = expr::parameter(0, "bits"), step = expr::parameter(1, "step"), hop = expr::parameter(2, "hop");
  expr bram = sadsl::modeling::deep_fifos_bram18k(bits, step, hop, hop), ff = sadsl::modeling::deep_fifos_ff(bits, step, hop, hop);
  auto has_sum = [](const expr& e) {
    std::vector<expr> pending{e};
    while (!pending.empty()) {
      expr next = pending.back();
      pending.pop_back();
      if (next.kind() == sadsl::model::op::sum) return true;
      for (std::size_t i = 0; i < sadsl::model::operand_count(next.kind()); ++i) pending.push_back(next.operand(i));
    }
    return false;
  };
  CHECK_FALSE(has_sum(bram));
  int checked = 0;
  for (int64_t b : {8, 16, 19, 25, 27, 32, 36, 37, 41, 64, 72, 128, 255, 256, 257, 512, 1024})
    for (int64_t st : {1, 2, 3, 7, 30, 127, 255, 256, 510, 511, 512, 1000})
      for (int64_t h : {0, 1, 2, 5, 17, 45}) {
        fifo_sums want = one_by_one(b, st, h, h);
        std::vector<double> x{double(b), double(st), double(h)};
        INFO("bits " << b << " step " << st << " hop " << h);
        CHECK(sadsl::model::evaluate(bram, x) == want.bram18k);
        CHECK(sadsl::model::evaluate(ff, x) == want.ff);
        ++checked;
      }
  CHECK(checked == 17 * 12 * 6);
}
