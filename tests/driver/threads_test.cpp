// Work design by design on several threads (design_models, compile_options::threads): a helper
// thread works on its own copy of the kernel, and the results are those of one thread.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include <sadsl/sadsl.hpp>

#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;

namespace {

kernel mm_at_48() {
  kernel k = catalog::mm();
  for (auto p : k.params()) p.set(48);
  return k;
}

// Who was asked for which design, from which thread and context.
struct call_log {
  std::mutex mutex;
  std::vector<std::string> names;
  std::set<std::thread::id> threads;
  bool foreign_design_on_caller = false;  // a helper's design seen on the calling thread
  bool own_design_on_helper = false;      // the caller's design seen on a helper thread

  void record(const design& d, isl_ctx* callers) {
    std::lock_guard lock(mutex);
    names.push_back(d.name());
    threads.insert(std::this_thread::get_id());
    bool on_caller = std::this_thread::get_id() == caller;
    bool callers_design = d.band->source->kernel().ctx() == callers;
    foreign_design_on_caller = foreign_design_on_caller || (on_caller && !callers_design);
    own_design_on_helper = own_design_on_helper || (!on_caller && callers_design);
  }
  std::thread::id caller = std::this_thread::get_id();
};

}  // namespace

TEST_CASE("design models made on several threads are those made on one") {
  kernel k = mm_at_48();
  std::vector<design> ds = designs(k);
  auto one = design_models(ds, compiler_models(), {}, 1);
  auto three = design_models(ds, compiler_models(), {}, 3);
  REQUIRE(one.size() == ds.size());
  REQUIRE(three.size() == ds.size());
  for (size_t d = 0; d < ds.size(); ++d) {
    INFO(ds[d].name());
    REQUIRE(one[d]);
    REQUIRE(three[d]);
    CHECK(model::emit_cpp(*three[d]) == model::emit_cpp(*one[d]));
  }
}

TEST_CASE("a concurrent model source is asked on helper threads with the designs of the helper's own kernel copy") {
  kernel k = mm_at_48();
  std::vector<design> ds = designs(k);
  call_log log;
  model_source slow = model_source::concurrent([&](const design& d) -> std::optional<model::design_model> {
    log.record(d, k.ctx());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // long enough for the helpers to join in
    return std::nullopt;
  });
  design_models(ds, slow, {}, 3);
  CHECK(log.names.size() == ds.size());
  std::set<std::string> asked(log.names.begin(), log.names.end());
  CHECK(asked.size() == ds.size());
  CHECK(log.threads.size() > 1);
  CHECK_FALSE(log.foreign_design_on_caller);
  CHECK_FALSE(log.own_design_on_helper);
}

TEST_CASE("a plain model source is asked on the calling thread only") {
  kernel k = mm_at_48();
  std::vector<design> ds = designs(k);
  call_log log;
  size_t asked = 0;  // not atomic on purpose: a plain source need not be thread-safe
  model_source plain = [&](const design& d) -> std::optional<model::design_model> {
    log.record(d, k.ctx());
    ++asked;
    return std::nullopt;
  };
  design_models(ds, plain, {}, 4);
  CHECK(asked == ds.size());
  CHECK(log.threads == std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST_CASE("a design with no twin in the helpers' copies is modelled on the calling thread") {
  kernel k = mm_at_48();
  design_options plain;
  plain.latency_hiding = false;
  plain.simd = false;
  std::vector<design> ds = designs(k);  // latency hiding and SIMD: none is among designs(copy, plain)
  call_log log;
  model_source source = model_source::concurrent([&](const design& d) -> std::optional<model::design_model> {
    log.record(d, k.ctx());
    return performance_model(d);
  });
  auto made = design_models(ds, source, plain, 3);
  CHECK(log.threads == std::set<std::thread::id>{std::this_thread::get_id()});
  REQUIRE(made.size() == ds.size());
  for (size_t d = 0; d < ds.size(); ++d) CHECK(model::emit_cpp(*made[d]) == model::emit_cpp(performance_model(ds[d])));
}

TEST_CASE("the first error in design order is the one reported, after every design was asked") {
  kernel k = mm_at_48();
  std::vector<design> ds = designs(k);
  std::atomic<size_t> asked{0};
  model_source failing = model_source::concurrent([&](const design& d) -> std::optional<model::design_model> {
    ++asked;
    if (d.name() == ds[5].name() || d.name() == ds[11].name()) throw error("no model for " + d.name());
    return std::nullopt;
  });
  CHECK(message_of([&] { design_models(ds, failing, {}, 2); }) == "no model for " + ds[5].name());
  CHECK(asked == ds.size());
}

TEST_CASE("compile gives the same results on one thread and on several") {
  auto run = [](unsigned threads) {
    kernel k = catalog::fir();
    for (auto p : k.params()) p.set(64);
    compile_options o;
    o.models = compiler_models(o.device);
    o.threads = threads;
    o.search.seconds = 0;
    compile_result r = compile(k, o);
    REQUIRE(r.tuned());
    return r.tuned_configuration().dump(2) + r.report();
  };
  CHECK(run(3) == run(1));
}

TEST_CASE("designs of two alike kernels are each modelled with their own kernel's objects") {
  kernel k = mm_at_48(), alike = mm_at_48();
  std::vector<design> ds = designs(k), theirs = designs(alike);
  ds.insert(ds.end(), theirs.begin(), theirs.end());
  auto one = design_models(ds, compiler_models(), {}, 1);
  auto three = design_models(ds, compiler_models(), {}, 3);
  for (size_t d = 0; d < ds.size(); ++d) {
    REQUIRE(one[d]);
    REQUIRE(three[d]);
    CHECK(three[d]->params.front().origin == one[d]->params.front().origin);  // the size of the design's own kernel
    CHECK(model::emit_cpp(*three[d]) == model::emit_cpp(*one[d]));
  }
  CHECK_FALSE(one.front()->params.front().origin == one[18]->params.front().origin);
}
