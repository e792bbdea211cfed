#include <catch2/catch.hpp>

#include "sadsl/error.hpp"

TEST_CASE("error messages carry the user's file:line") {
  auto here = std::source_location::current();
  sadsl::error e("tensor \"A\" is bad", here);
  CHECK(std::string(e.what()) == "error_test.cpp:" + std::to_string(here.line()) + ": tensor \"A\" is bad");
}

TEST_CASE("internal assertions throw internal_error, never abort") {
  CHECK_THROWS_AS([] { SADSL_INTERNAL_ASSERT(1 + 1 == 3, "arithmetic"); }(), sadsl::internal_error);
}
