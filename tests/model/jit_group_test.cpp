// Compiling several models together (jit_compile_all, make_evaluators): one compiler run per
// thread, each model cached on its own afterwards, the same code as jit_compile's, and every
// failure reported for each model of the group that failed.
#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <set>
#include <thread>

#include "sadsl/model/compile.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/files.hpp"
#include "sadsl/model/interpreter.hpp"
#include "sadsl/model/odyssey.hpp"
#include "sadsl/tune/device.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

namespace {

// The first `count` MM models, in the order of gemm_designs().
std::vector<design_model> gemm_models(std::size_t count) {
  std::vector<design_model> models;
  for (const std::string& d : testing::gemm_designs())
    if (models.size() < count) models.push_back(import_odyssey_descriptor(testing::descriptor("gemm", d)));
  return models;
}

std::vector<const design_model*> pointers(const std::vector<design_model>& models) {
  std::vector<const design_model*> out;
  for (const design_model& m : models) out.push_back(&m);
  return out;
}

std::vector<std::filesystem::path> files_with(const std::filesystem::path& dir, const std::string& extension) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == extension) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The metrics of `compiled` at `points`, one call per point.
std::vector<metrics> evaluated(const compiled_model& compiled, std::vector<double> points, std::size_t width) {
  device_limits u250 = sadsl::tune::builtin_device("u250").limits();
  std::vector<metrics> out(points.size() / width);
  for (std::size_t p = 0; p < out.size(); ++p) compiled.evaluate(points.data() + p * width, &out[p], &u250);
  return out;
}

}  // namespace

TEST_CASE("models compiled together are cached one by one and give jit_compile's values", "[jit]") {
  testing::temporary_cache cache("jit-group");
  jit_options options;
  options.cache_dir = cache.dir;
  std::vector<design_model> models = gemm_models(5);
  std::vector<const design_model*> asked = pointers(models);
  asked.push_back(&models[1]);  // the same model twice: compiled once, given to both

  std::vector<jit_outcome> together = jit_compile_all(asked, options, 2);
  REQUIRE(together.size() == 6);
  for (const jit_outcome& o : together) {
    CHECK(o.error.empty());
    CHECK(o.compiled);
  }
  // Two compiler runs (one per thread), whose sources stay; each model has its own library.
  auto sources = files_with(cache.dir, ".cpp");
  REQUIRE(sources.size() == 2);
  for (const auto& s : sources) CHECK(s.filename().string().starts_with("group-"));
  auto libraries = files_with(cache.dir, ".so");
  REQUIRE(libraries.size() == 5);
  for (std::size_t m = 0; m < models.size(); ++m)
    CHECK(std::count_if(libraries.begin(), libraries.end(), [&](const auto& l) {
            return l.filename().string().starts_with(model_hash(models[m]) + "-");
          }) == 1);

  // jit_compile finds each in the cache (no compiler run: no new file, none rewritten) and its
  // code gives the same bits at random points.
  auto written = std::filesystem::last_write_time(libraries[0]);
  for (std::size_t m = 0; m < models.size(); ++m) {
    compiled_model alone = jit_compile(models[m], options);
    CHECK(std::string(alone.abi().model_hash) == model_hash(models[m]));
    std::size_t width = models[m].params.size();
    std::vector<double> points = testing::random_points(models[m], 500, 7 + m);
    std::vector<metrics> a = evaluated(alone, points, width), b = evaluated(*together[m].compiled, points, width);
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(metrics)) == 0);
  }
  CHECK(files_with(cache.dir, ".so") == libraries);
  CHECK(files_with(cache.dir, ".cpp") == sources);
  CHECK(std::filesystem::last_write_time(libraries[0]) == written);

  // Asked again, all come from the cache.
  std::vector<jit_outcome> again = jit_compile_all(pointers(models), options, 2);
  for (const jit_outcome& o : again) CHECK(o.compiled);
  CHECK(files_with(cache.dir, ".cpp") == sources);

  // Threads 0: one compiler run per hardware thread (as compile_options::threads = 0).
  options.cache_dir = cache.dir / "every-core";
  for (const jit_outcome& o : jit_compile_all(pointers(models), options, 0)) CHECK(o.compiled);
  std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  std::set<std::string> shared;  // models with one core are compiled together
  for (const design_model& m : models) shared.insert(emit_model(m).core_hash);
  CHECK(files_with(options.cache_dir, ".cpp").size() == std::min<std::size_t>(cores, shared.size()));
}

namespace {

// A design's model in which the outer tile loop's count multiplies the phases, the inner one's
// the work of a phase: two tile orders give the same function of the two counts, in the other
// order (as MM's [i,j] <[j,k],i> and [i,j] <[i,k],j>). One count is written ceil(I / i_t1), the
// other ceil_div(J, j_t1): both are tile counts.
design_model tile_order_model(const std::string& name, bool i_outer) {
  design_model m = testing::sized_model(name, {"I", "J", "i_t1", "j_t1"});
  expr i_tiles = ceil(m.param("I") / m.param("i_t1")), j_tiles = ceil_div(m.param("J"), m.param("j_t1"));
  expr outer = i_outer ? i_tiles : j_tiles, inner = i_outer ? j_tiles : i_tiles;
  m.modules.push_back({"PE", module_role::compute, make_leaf(outer * (inner * m.param("i_t1") + 7)), {}, {}});
  m.dsp = 5 * (outer + inner);
  return m;
}

std::size_t occurrences(const std::string& text, const std::string& of) {
  std::size_t n = 0;
  for (std::size_t at = text.find(of); at != std::string::npos; at = text.find(of, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("models that differ only in where their tile counts go share one core, compiled once", "[jit]") {
  design_model i_outer = tile_order_model("i outer", true), j_outer = tile_order_model("j outer", false);
  design_model other = tile_order_model("other", true);
  other.modules[0].main = make_leaf(ceil(other.param("I") / other.param("i_t1")) + 7);
  emitted_model a = emit_model(i_outer), b = emit_model(j_outer), c = emit_model(other);
  CHECK(a.hash != b.hash);
  CHECK(a.core_hash == b.core_hash);
  CHECK(c.core_hash != a.core_hash);
  // Each model's own source holds the core; a unit of all three holds the shared one once.
  CHECK(occurrences(a.source, "namespace sadsl_core_" + a.core_hash + " {") == 1);
  emitted_models together = emit_models({&i_outer, &other, &j_outer});
  CHECK(occurrences(together.source, "namespace sadsl_core_" + a.core_hash + " {") == 1);
  CHECK(occurrences(together.source, "namespace sadsl_core_" + c.core_hash + " {") == 1);
  CHECK(occurrences(together.source, "\nnamespace sadsl_core_") == 2);

  // Compiled on two threads: the sharing models go to one unit, the other to the second. A
  // model of the same code under another name (two designs may have one model) is compiled once
  // and cached under its own name too.
  design_model renamed = i_outer;
  renamed.name = "i outer, renamed";
  testing::temporary_cache cache("jit-shared-core");
  jit_options options;
  options.cache_dir = cache.dir;
  std::vector<jit_outcome> compiled = jit_compile_all({&i_outer, &other, &j_outer, &renamed}, options, 2);
  CHECK(files_with(cache.dir, ".so").size() == 4);
  auto sources = files_with(cache.dir, ".cpp");
  REQUIRE(sources.size() == 2);
  std::size_t with_both = 0;
  for (const auto& s : sources) {
    std::string text = read_input_file(s, "group source");
    bool has_a = text.find("namespace sadsl_model_" + a.hash + " {") != std::string::npos;
    bool has_b = text.find("namespace sadsl_model_" + b.hash + " {") != std::string::npos;
    CHECK(has_a == has_b);
    with_both += has_a && has_b;
  }
  CHECK(with_both == 1);

  // Each gives its own model's values (the interpreter's, bit for bit), which differ.
  device_limits u250 = sadsl::tune::builtin_device("u250").limits();
  std::vector<design_model*> models{&i_outer, &other, &j_outer, &renamed};
  std::size_t differing = 0;
  for (std::size_t m = 0; m < 4; ++m) {
    REQUIRE(compiled[m].compiled);
    std::vector<double> points = testing::random_points(*models[m], 200, 11);
    std::vector<metrics> got = evaluated(*compiled[m].compiled, points, 4);
    for (std::size_t p = 0; p < got.size(); ++p) {
      std::vector<double> point(points.begin() + 4 * p, points.begin() + 4 * p + 4);
      metrics expected = interpreter(*models[m]).evaluate(point, u250);
      CHECK(std::memcmp(&got[p], &expected, sizeof(metrics)) == 0);
      if (m == 2) differing += interpreter(i_outer).evaluate(point, u250).latency != got[p].latency;
      if (m == 3) CHECK(std::memcmp(&got[p], &evaluated(*compiled[0].compiled, point, 4)[0], sizeof(metrics)) == 0);
    }
  }
  CHECK(differing > 100);
}

TEST_CASE("a group that fails to compile gives each of its models the error", "[jit][errors]") {
  testing::temporary_cache cache("jit-group-failing");
  jit_options options;
  options.cache_dir = cache.dir;
  options.compiler = "false";
  std::string compiler = find_cxx_compiler(options);
  std::vector<design_model> models = gemm_models(3);
  for (std::size_t m = 0; m < models.size(); ++m) models[m].name = "mm" + std::to_string(m);
  std::vector<jit_outcome> one_group = jit_compile_all(pointers(models), options, 1);
  for (const jit_outcome& o : one_group) {
    CHECK_FALSE(o.compiled);
    CHECK(o.error.starts_with("compiling models \""));
    CHECK(o.error.find(" with " + compiler + " failed (exit 1): ") != std::string::npos);
    for (const char* name : {"\"mm0\"", "\"mm1\"", "\"mm2\""}) CHECK(o.error.find(name) != std::string::npos);
  }

  // Two groups (two threads): each model gets its own group's error, naming that group's models.
  std::size_t alone = 0, paired = 0;
  for (const jit_outcome& o : jit_compile_all(pointers(models), options, 2)) {
    CHECK_FALSE(o.compiled);
    alone += o.error.starts_with("compiling model \"mm") ? 1 : 0;
    paired += o.error.starts_with("compiling models \"mm") && o.error.find("\" and \"mm") != std::string::npos ? 1 : 0;
  }
  CHECK(alone == 1);
  CHECK(paired == 2);

  options.compiler = "no-such-compiler-sadsl";
  for (const jit_outcome& o : jit_compile_all(pointers(models), options, 2))
    CHECK(o.error == "C++ compiler \"no-such-compiler-sadsl\" not found");
}

TEST_CASE("a model that cannot be written gets its error, the others are compiled", "[jit][errors]") {
  testing::temporary_cache cache("jit-group-unwritable");
  jit_options options;
  options.cache_dir = cache.dir;
  std::vector<design_model> models = gemm_models(2);
  design_model& broken = models[0];
  broken.name = "broken";
  std::string first = broken.params[0].name, last = broken.params.back().name;
  broken.params[0].inferred = inference{1, broken.param(last)};
  std::vector<jit_outcome> got = jit_compile_all(pointers(models), options, 2);
  CHECK_FALSE(got[0].compiled);
  CHECK(got[0].error == "model \"broken\": inferred parameter \"" + first + "\" depends on itself or on a parameter after it");
  CHECK(got[1].compiled);
  CHECK(got[1].error.empty());
}

TEST_CASE("make_evaluators: a model that cannot be written is interpreted, with the reason", "[jit][errors]") {
  // Its code is made once, with the others' (which looks for models compiled ahead of time by
  // its hash, then compiles the rest): the error is the model's fallback reason, not a throw.
  testing::temporary_cache cache("jit-evaluators-unwritable");
  evaluator_options options;  // ahead of time first, as compile() asks
  options.jit.cache_dir = cache.dir;
  std::vector<design_model> models = gemm_models(2);
  models[0].name = "broken";
  std::string first = models[0].params[0].name, last = models[0].params.back().name;
  models[0].params[0].inferred = inference{1, models[0].param(last)};
  std::vector<std::shared_ptr<const evaluator>> made = make_evaluators(models, options, 2);
  REQUIRE(made.size() == 2);
  CHECK(made[0]->active_backend() == backend::interpreter);
  CHECK(made[0]->fallback_reason() == "model \"broken\": inferred parameter \"" + first + "\" depends on itself or on a parameter after it");
  CHECK(made[1]->active_backend() != backend::interpreter);  // this test program has it compiled ahead of time
  CHECK(made[1]->fallback_reason().empty());
  evaluator alone(models[0], options);  // one evaluator alike
  CHECK(alone.active_backend() == backend::interpreter);
  CHECK(alone.fallback_reason() == made[0]->fallback_reason());
}

TEST_CASE("make_evaluators: the models compiled together, the interpreter where compiling fails", "[jit]") {
  testing::temporary_cache cache("jit-evaluators");
  evaluator_options options;
  options.use_ahead_of_time = false;
  options.jit.cache_dir = cache.dir;
  std::vector<design_model> models = gemm_models(3);
  std::vector<std::shared_ptr<const evaluator>> made = make_evaluators(models, options, 2);
  REQUIRE(made.size() == 3);
  device_limits u250 = sadsl::tune::builtin_device("u250").limits();
  for (std::size_t m = 0; m < 3; ++m) {
    CHECK(made[m]->active_backend() == backend::just_in_time);
    CHECK(made[m]->fallback_reason().empty());
    CHECK(made[m]->model().name == models[m].name);
    std::vector<double> point = testing::random_points(models[m], 1, 3);
    std::vector<double> copy = point;
    metrics compiled = made[m]->evaluate(point, u250);
    metrics interpreted = interpreter(models[m]).evaluate(copy, u250);
    CHECK(std::memcmp(&compiled, &interpreted, sizeof(metrics)) == 0);
  }

  options.jit.compiler = "false";
  options.jit.cache_dir = cache.dir / "other";
  std::vector<std::shared_ptr<const evaluator>> fallback = make_evaluators(models, options, 1);
  for (const auto& e : fallback) {
    CHECK(e->active_backend() == backend::interpreter);
    CHECK(e->fallback_reason().starts_with("compiling models \""));
  }

  options.use_just_in_time = false;
  for (const auto& e : make_evaluators(models, options, 2)) {
    CHECK(e->active_backend() == backend::interpreter);
    CHECK(e->fallback_reason().empty());
  }
}

TEST_CASE("emit_models: the helpers once, each model once in its own namespace", "[jit]") {
  std::vector<design_model> models = gemm_models(2);
  emitted_models together = emit_models({&models[0], &models[1], &models[0]});
  REQUIRE(together.hashes.size() == 3);
  for (std::size_t m = 0; m < 3; ++m) CHECK(together.hashes[m] == model_hash(models[m % 2]));
  auto occurrences = [&](const std::string& text) {
    std::size_t n = 0;
    for (std::size_t at = together.source.find(text); at != std::string::npos; at = together.source.find(text, at + 1)) ++n;
    return n;
  };
  CHECK(occurrences("inline bool sadsl_power_of_two(double x)") == 1);
  for (const design_model& m : models) {
    CHECK(occurrences("namespace sadsl_model_" + model_hash(m) + " {") == 1);
    CHECK(occurrences("sadsl_model_" + model_hash(m) + "_abi() {") == 1);
  }
  CHECK(occurrences("sadsl_register_ahead_of_time_model(") == 0);
  emit_options registered;
  registered.register_ahead_of_time = true;
  CHECK(emit_models({&models[0], &models[1]}, registered).source.find(
            "sadsl_register_ahead_of_time_model(sadsl_model_" + model_hash(models[1]) + "_abi())") != std::string::npos);
}
