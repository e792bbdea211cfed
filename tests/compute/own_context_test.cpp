// kernel::with_own_context: the same kernel on a new isl context, for work on several threads.
#include <catch2/catch.hpp>

#include <sadsl/sadsl.hpp>

using namespace sadsl;

TEST_CASE("a kernel on its own context builds the same program in that context") {
  kernel k = catalog::lu();
  kernel copy = k.with_own_context();
  CHECK(copy.ctx() != k.ctx());
  CHECK(copy.name() == k.name());
  program p = build_program(k);
  program q = build_program(copy);
  CHECK(q.kernel().ctx() == copy.ctx());
  CHECK(dump_program(q) == dump_program(p));
  REQUIRE(copy.statements().size() == k.statements().size());
  for (size_t s = 0; s < k.statements().size(); ++s) CHECK(copy.statements()[s].id == k.statements()[s].id);
}

TEST_CASE("a kernel and its copy share their problem sizes") {
  kernel k = catalog::mm();
  kernel copy = k.with_own_context();
  k.get_param("J").set(77);
  CHECK(copy.get_param("J").value() == 77);
  CHECK(copy.get_param("J").id() == k.get_param("J").id());
}

TEST_CASE("the designs of a kernel copy are those of the kernel, in the copy's context") {
  kernel k = catalog::fir();
  kernel copy = k.with_own_context();
  // The copy's designs are those of the kernel: the same descriptions, the same factor identities.
  std::vector<design> mine = designs(k), theirs = designs(copy);
  REQUIRE(mine.size() == theirs.size());
  for (size_t d = 0; d < mine.size(); ++d) {
    CHECK(theirs[d].str() == mine[d].str());
    CHECK(theirs[d].band->source->kernel().ctx() == copy.ctx());
    REQUIRE(theirs[d].factors.size() == mine[d].factors.size());
    for (size_t f = 0; f < mine[d].factors.size(); ++f) CHECK(theirs[d].factors[f].id == mine[d].factors[f].id);
  }
}
