// scoped_sizes: problem sizes that hold on one thread while a compiler step works at them.
#include <catch2/catch.hpp>

#include <optional>
#include <thread>

#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"

using namespace sadsl;

TEST_CASE("scoped sizes hold on their own thread, and end with their scope") {
  kernel k = catalog::mm();
  param i = k.get_param("I");
  i.set(100);
  {
    scoped_sizes small(k, [](int64_t n, int64_t) { return 10 + n; });
    CHECK(i.value() == 10);
    CHECK(k.get_param("K").value() == 12);
    int64_t elsewhere = 0;
    std::thread([&] { elsewhere = i.value(); }).join();
    CHECK(elsewhere == 100);  // another thread sees the user's value
    {
      scoped_sizes smaller(k, [](int64_t, int64_t value) { return value - 5; });
      CHECK(i.value() == 5);
    }
    CHECK(i.value() == 10);
  }
  CHECK(i.value() == 100);
}

TEST_CASE("a scoped size below 1") {
  kernel k = catalog::mm();
  CHECK(sadsl::testing::message_of([&] { scoped_sizes bad(k, [](int64_t, int64_t) { return 0; }); }) ==
        "param \"I\" set to 0: problem sizes must be at least 1");
  CHECK(k.get_param("I").value() == 1024);  // nothing was set
}

TEST_CASE("scoped sizes that outlive their kernel's handles apply to no other kernel") {
  std::optional<scoped_sizes> sizes;
  {
    kernel k("small");
    k.param("N", 100);
    sizes.emplace(k, [](int64_t, int64_t) { return 3; });
  }
  // The first kernel's param node lives as long as its override: the new node cannot take its
  // address and its override.
  kernel other("other");
  param m = other.param("M", 50);
  CHECK(m.value() == 50);
  sizes.reset();
  CHECK(m.value() == 50);
}
