// The interpreter's self-check (run_options::check_instances) and its guards against wrong
// schedule arithmetic: hand-written schedules that run an instance outside its domain, one twice,
// or miss one; 64-bit overflow in loop bounds; the precompiled domain test against isl.
#include <catch2/catch.hpp>

#include <isl/set.h>

#include <sadsl/sadsl.hpp>

#include "../../src/poly/instance_check.hpp"

using namespace sadsl;

namespace {

// The message of the internal_error that f throws, or "(no internal_error)".
template <class F>
std::string internal_message_of(F&& f) {
  try {
    f();
  } catch (const internal_error& e) {
    return e.what();
  }
  return "(no internal_error)";
}

// A(i) = 1 over 0 <= i < N = 4; A has N + 1 elements, so a schedule that also runs i = N stays
// in bounds and only the instance check can notice.
struct one_statement {
  kernel k{"k"};
  param N = k.param("N", 4);
  tensor<int32_t> A = k.output<int32_t>("A", {N + 1});
  program p = [this] {
    loop i("i", N);
    A(i) = 1;
    return build_program(k);
  }();

  // Runs `schedule` (isl's text, in the kernel's context); checked or not.
  void run_text(const std::string& schedule, bool checked) {
    buffers data(k);
    run(p, isl::schedule(isl::ctx(k.ctx()), schedule), data, run_options{{}, checked});
  }
};

const std::string too_many = "{ domain: \"[N] -> { S0[i] : 0 <= i <= N }\" }";
const std::string twice = "{ domain: \"[N] -> { S0[i] : 0 <= i < N }\", child: { sequence: [ { filter: \"[N] -> { "
                          "S0[i] }\" }, { filter: \"[N] -> { S0[i] : i < 2 }\" } ] } }";
const std::string too_few = "{ domain: \"[N] -> { S0[i] : 0 <= i < N - 1 }\" }";

}  // namespace

TEST_CASE("instance check: an instance outside its statement's domain") {
  one_statement s;
  CHECK_NOTHROW(s.run_text(too_many, false));  // unchecked, the wrong schedule goes unnoticed
  CHECK(internal_message_of([&] { s.run_text(too_many, true); }) ==
        "interpreter check: statement S0 (A(i) = 1) of kernel \"k\" executed instance (i = 4), outside its domain "
        "[N] -> { S0[i] : 0 <= i < N }, at N = 4; the schedule's loop nest (dump_schedule_code) runs it at c0 = 4");
}

TEST_CASE("instance check: an instance executed twice") {
  one_statement s;
  CHECK_NOTHROW(s.run_text(twice, false));
  CHECK(internal_message_of([&] { s.run_text(twice, true); }) ==
        "interpreter check: statement S0 (A(i) = 1) of kernel \"k\" executed instance (i = 0) twice at N = 4; the "
        "second time the schedule's loop nest (dump_schedule_code) runs it at c0 = 0");
}

TEST_CASE("instance check: an instance never executed") {
  one_statement s;
  CHECK_NOTHROW(s.run_text(too_few, false));
  CHECK(internal_message_of([&] { s.run_text(too_few, true); }) ==
        "interpreter check: statement S0 (A(i) = 1) of kernel \"k\" executed 3 of the 4 instances of its domain at "
        "N = 4; never executed: (i = 3)");
}

// A domain that is no box is counted over its bounding box (a triangle cut by a guard: 12 of the
// box's 25 points), not by isl's enumeration; the count must still be exact.
TEST_CASE("instance check: an instance of a triangular, guarded domain never executed") {
  kernel k("tri");
  param N = k.param("N", 5);
  auto A = k.input<int32_t>("A", {N, N});
  auto B = k.output<int32_t>("B", {N, N});
  loop i("i", N), j("j", i, N);
  if_(j < i + 3, [&] { B(i, j) = A(i, j); });
  program p = build_program(k);
  buffers data(k);
  const std::string all = "[N] -> { S0[i, j] : 0 <= i < N and i <= j < N and j < i + 3";
  CHECK_NOTHROW(run(p, isl::schedule(isl::ctx(k.ctx()), "{ domain: \"" + all + " }\" }"), data, run_options{{}, true}));
  CHECK(internal_message_of([&] {
          run(p, isl::schedule(isl::ctx(k.ctx()), "{ domain: \"" + all + " and j < 4 }\" }"), data, run_options{{}, true});
        }) == "interpreter check: statement S0 (B(i, j) = A(i, j)) of kernel \"tri\" executed 9 of the 12 instances of its "
              "domain at N = 5; never executed: (i = 4, j = 4)");
}

TEST_CASE("instance check: the program's own schedule passes, guards and triangles included") {
  kernel k("tri");
  param N = k.param("N", 6);
  auto A = k.input<float>("A", {N, N});
  auto y = k.output<float>("y", {N});
  loop i("i", N), j("j", i, N);
  if_(j < i + 3, [&] { y(i) += A(i, j); });
  buffers data(k);
  data.randomize_inputs(1);
  CHECK_NOTHROW(run(build_program(k), data, run_options{{}, true}));
}

TEST_CASE("schedule arithmetic that leaves 64 bits is an internal error, not undefined behaviour") {
  one_statement s;
  // The loop runs c0 up to 2^63 - 1: its increment past the last iteration overflows.
  CHECK(internal_message_of([&] {
          s.run_text("{ domain: \"[N] -> { S0[i] : 0 <= i < N }\", child: { schedule: \"[N] -> [{ S0[i] -> "
                     "[(i + 9223372036854775804)] }]\" } }",
                     false);
        }) == "interpreter: 64-bit overflow in an addition while evaluating a schedule expression");
  // A loop's start 2^63 + 2 is no 64-bit constant.
  CHECK_THAT(internal_message_of([&] {
               s.run_text("{ domain: \"[N] -> { S0[i] : 0 <= i < N }\", child: { schedule: \"[N] -> [{ S0[i] -> "
                          "[(i + 9223372036854775810)] }]\" } }",
                          false);
             }),
             Catch::Contains("an isl AST constant does not fit in 64 bits"));
}

TEST_CASE("domain test: integer rows with floors agree with isl, unknown existentials included") {
  struct owned_ctx {  // isl::ctx does not own its context; freed after every object below
    isl_ctx* raw = isl_ctx_alloc();
    ~owned_ctx() { isl_ctx_free(raw); }
  } owner;
  isl::ctx ctx(owner.raw);
  for (const char* text : {"{ [i] : exists a : i = 2a and 0 <= i < 10 }",
                           "{ [i, j] : exists a, b : i = 3a + 1 and j = 2b and 0 <= i < 10 and 0 <= j < 7 }",
                           "{ [i] : exists a : 2i <= 5a <= 2i + 3 and 0 <= i < 20 }",
                           "{ [i] : 0 <= i < 3 or 5 <= i < 7 }",
                           "{ [i] : exists a, b : 0 <= a <= 5 and 0 <= b <= 5 and i = 3a + 5b }",
                           "{ [i, j] : exists a : 2a <= i <= 3a and a <= j <= 2a + 1 and 0 <= i < 20 }"}) {
    INFO(text);
    isl::set set(ctx, text);
    detail::domain_test test(set);
    int dims = isl_set_dim(set.get(), isl_dim_set), inside = 0;
    for (int64_t i = -3; i < 24; ++i)
      for (int64_t j = -2; j < (dims == 2 ? 9 : -1); ++j) {
        int64_t point[2] = {i, j};
        isl::set p = isl::manage(isl_set_fix_si(isl_set_fix_si(isl_set_universe(isl_set_get_space(set.get())),
                                                               isl_dim_set, 0, static_cast<int>(i)),
                                                isl_dim_set, dims - 1, static_cast<int>(point[dims - 1])));
        bool expected = p.is_subset(set);
        CHECK(test.contains(point) == expected);
        inside += expected;
      }
    CHECK(inside > 0);
  }
}
