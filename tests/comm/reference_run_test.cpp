// One run of the kernel as written serves the checks of every design (compile()'s verification
// step): the design's schedule and its architecture agree with it, and a reference made from
// other inputs is told apart, not trusted.
#include <catch2/catch.hpp>

#include <sadsl/comm/executor.hpp>
#include <sadsl/compute/verify.hpp>
#include <sadsl/sadsl.hpp>

using namespace sadsl;

TEST_CASE("designs are checked against one reference run of the kernel", "[verify]") {
  kernel k = catalog::mm();
  k.get_param("I").set(10);
  k.get_param("J").set(12);
  k.get_param("K").set(14);
  const buffers expected = reference_run(k);
  const buffers other = reference_run(k, 7);  // other random inputs
  std::vector<design> all = designs(k);
  REQUIRE(all.size() == 18);
  for (size_t i = 0; i < all.size(); i += 5) {
    const design& d = all[i];
    design_point p = sample_point(d);
    architecture a = build_architecture(d, {p, {}, false});
    INFO(d.name());
    CHECK(verify_design(d, p, expected) == "");
    CHECK(verify_architecture(a, expected) == "");
    CHECK(verify_design(d, p, expected) == verify_design(d, p));
    std::string wrong = verify_design(d, p, other);
    CHECK(wrong.rfind("design " + d.name() + ": C[0] is ", 0) == 0);
    CHECK(verify_architecture(a, other).rfind("architecture of design " + d.name() + ": C[0] is ", 0) == 0);
  }
}
