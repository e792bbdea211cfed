// The driver: compile() runs the flow step by step; the Odyssey model source binds AutoSA's
// descriptors to the kernel's objects; a tuned point maps back to the design's factors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>

#include <sadsl/sadsl.hpp>

#include "../support/kernels.hpp"
#include "../support/test_support.hpp"

using namespace sadsl;
using namespace sadsl::testing;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> step_names(const compile_result& r) {
  std::vector<std::string> out;
  for (const auto& s : r.steps) out.push_back(s.name);
  return out;
}

fs::path gemm_descriptors() { return shared_reference_dir() / "odyssey" / "descriptors" / "gemm"; }

kernel small_mm() {
  kernel k = catalog::mm();
  for (auto p : k.params()) p.set(64);
  return k;
}

}  // namespace

TEST_CASE("without models the flow stops after verifying the designs") {
  kernel k = catalog::mm();
  k.get_param("I").set(100);
  compile_result r = compile(k);
  CHECK(r.designs.size() == 18);
  CHECK(step_names(r) == std::vector<std::string>{"program", "dependences", "designs", "verify", "operations"});
  CHECK(r.work.operations == 2.0 * 100 * 1024 * 1024);
  CHECK(r.work.floating_point);
  CHECK(k.get_param("I").value() == 100);  // verification ran at reduced sizes and restored them
  CHECK_FALSE(r.tuned());
  CHECK(r.not_tuned == "no model source given");
  CHECK(message_of([&] { r.best_design(); }) == "compile result: no design was tuned (no model source given)");
  CHECK(message_of([&] { r.report(); }) == "compile result: no design was tuned (no model source given)");
}

TEST_CASE("a model source with no model for any design") {
  kernel k = catalog::fir();
  compile_options o;
  o.verify = false;
  int asked = 0;
  o.models = [&](const design&) -> std::optional<model::design_model> {
    ++asked;
    return std::nullopt;
  };
  compile_result r = compile(k, o);
  CHECK(asked == static_cast<int>(r.designs.size()));
  CHECK(r.not_tuned == "no design has a performance model");
  CHECK(step_names(r).back() == "models");
}

TEST_CASE("a design sadsl's compiler cannot model says why") {
  kernel k = catalog::trmm();  // triangular (k starts at i), with partial sums or tiles sharing a phase
  k.get_param("M").set(32);
  k.get_param("N").set(32);
  compile_options o;
  o.verify = false;
  o.threads = 1;
  o.models = compiler_models();
  compile_result r = compile(k, o);
  CHECK_FALSE(r.tuned());
  REQUIRE(r.not_modeled.size() == r.designs.size());
  for (const auto& why : r.not_modeled) CHECK_FALSE(why.empty());
  const std::string why = "tile_traffic: design [i] <[i,j],k> runs several tiles of loop i in one phase, where a PE may keep "
                          "values from one tile to the next; sadsl counts a tile's DRAM traffic only where every tile is a "
                          "phase of its own";
  CHECK(r.not_modeled.front() == why);
  CHECK(r.not_tuned == "no design has a performance model (design " + r.designs.front().name() + ": " + why + ")");
}

TEST_CASE("a design whose architecture is refused is dropped and the other designs go on") {
  // C(i) -= min(-C(i), X(j)): with j in space the update would read the previous PE's C(i) twice.
  kernel k("twice");
  param N = k.param("N", 64);
  auto X = k.input<float>("X", {N});
  auto C = k.inout<float>("C", {N});
  loop i("i", N), j("j", N);
  C(i) -= min(-C(i), X(j));
  compile_options o;
  o.threads = 1;
  std::vector<std::string> asked;
  o.models = [&](const design& d) -> std::optional<model::design_model> {
    asked.push_back(d.name());
    return std::nullopt;
  };
  compile_result r = compile(k, o);
  REQUIRE(r.refused.size() == r.designs.size());
  std::vector<std::string> built;
  for (size_t d = 0; d < r.designs.size(); ++d) {
    const std::string& name = r.designs[d].name();
    if (r.refused[d].empty()) {
      built.push_back(name);
      CHECK(r.not_modeled[d] == "the model source has none");
      continue;
    }
    CHECK(name.find("j]") != std::string::npos);  // a design with j in space
    std::string refusal = "design " + name + ": statement S0 reads one value of tensor \"C\" twice from the previous PE "
                          "along j (C(i) and C(i)) in one instance; sadsl passes each value once along a chain";
    CHECK(r.refused[d] == refusal);
    CHECK(r.not_modeled[d] == "not built: " + refusal);
  }
  CHECK(built == std::vector<std::string>{"[i] <[i],j>", "[i] <[j],i>"});
  CHECK(asked == built);  // a refused design is not modeled
  CHECK(r.not_tuned == "no design has a performance model (not built: design [j] <[i],j>: statement S0 reads one value "
                       "of tensor \"C\" twice from the previous PE along j (C(i) and C(i)) in one instance; sadsl passes "
                       "each value once along a chain)");
}

TEST_CASE("a model source's reason for no model goes into the result and the report") {
  kernel k = catalog::fir();
  k.get_param("N").set(64);
  compile_options o;
  o.verify = false;
  o.search.seconds = 0;
  model_source own = compiler_models();
  std::string first;
  o.models = [&](const design& d) -> std::optional<model::design_model> {
    if (first.empty()) first = d.name();
    if (d.name() == first) throw no_model("not this one");
    return own(d);
  };
  compile_result r = compile(k, o);
  REQUIRE(r.tuned());
  CHECK(r.spaces.size() + 1 == r.designs.size());
  CHECK(r.not_modeled.front() == "not this one");
  CHECK(r.report().find("| " + first + " | not modeled: not this one | | | | | | | |\n") != std::string::npos);
  // Without a reason: "the model source has none".
  o.models = [](const design&) -> std::optional<model::design_model> { return std::nullopt; };
  compile_result none = compile(k, o);
  CHECK(none.not_modeled.back() == "the model source has none");
  CHECK(none.not_tuned == "no design has a performance model");
}

TEST_CASE("the workload counts the kernel's own operations") {
  kernel k = catalog::cnn();
  compile_options o;
  o.verify = false;
  compile_result r = compile(k, o);
  CHECK(r.work.operations == 2.0 * 16 * 16 * 16 * 16 * 3 * 3);
}

TEST_CASE("a bad verification size") {
  compile_options o;
  o.verify_size = 0;
  CHECK(message_of([&] { compile(catalog::mm(), o); }) == "compile_options::verify_size = 0, but sizes are at least 1");
}

TEST_CASE("the Odyssey binding maps loops, sizes and tensors by the kernel's names") {
  kernel k = catalog::mm();
  auto ds = designs(k);
  model::odyssey_binding b = odyssey_binding_of(ds.front());
  CHECK(b.loops.at("i") == ds.front().band->loop("i"));
  CHECK(b.sizes.at("k") == k.get_param("K").id());
  CHECK(b.tensors.at("B") == k.tensors()[1]->id());
  kernel tri = catalog::lu_uniform();  // triangular loops: no single-param extent for some
  model::odyssey_binding t = odyssey_binding_of(designs(tri).front());
  CHECK(t.loops.size() == 3);
  CHECK(t.sizes.size() < 3);
}

TEST_CASE("compile tunes every design that has a descriptor and builds the tuned architecture") {
  SADSL_REQUIRE_SHARED_REFERENCE();
  kernel k = small_mm();
  compile_options o;
  o.models = odyssey_models(gemm_descriptors());
  o.search.seconds = 0;
  o.output = fs::temp_directory_path() / ("sadsl_driver_" + std::to_string(::getpid()));
  fs::remove_all(o.output);
  compile_result r = compile(k, o);
  REQUIRE(r.tuned());
  CHECK(r.spaces.size() == 18);  // AutoSA has a descriptor for every sadsl design of MM
  CHECK(step_names(r) == std::vector<std::string>{"program", "dependences", "designs", "verify", "operations",
                                                  "models", "tune", "architecture", "symbolic", "hls"});
  for (size_t s = 0; s < r.spaces.size(); ++s) CHECK(r.spaces[s].name() == r.designs[r.space_design[s]].name());
  const design& best = r.best_design();
  design_point p = r.best_point();
  CHECK(p.size() == best.factors.size());
  auto cfg = r.tuned_configuration();
  CHECK(cfg["design"] == best.name());
  CHECK(cfg["source"].get<std::string>().rfind("AutoSA descriptor gemm/kernel", 0) == 0);
  CHECK(cfg["proven_optimal"] == true);
  CHECK(cfg["offchip_bytes_per_port"].is_null());  // AutoSA's descriptors give no split
  CHECK_FALSE(cfg.contains("seconds"));
  for (const auto& [f, v] : p) CHECK(cfg["params"][best.name_of(f)] == v);
  REQUIRE(r.tuned_architecture);
  CHECK(r.tuned_architecture->design->name() == best.name());
  CHECK(r.tuned_architecture->point.factors == p);
  for (const char* file : {"polyhedral.txt", "designs.txt", "tuned.json", "architecture.txt", "architecture.dot"})
    CHECK(fs::exists(o.output / file));
  // The tuned design's symbolic architecture. (Odyssey's models allow one PE along a space loop
  // that partial sums flow along, where the architecture is another: counts_at refuses such a
  // point, so the test with sadsl's own models below binds it.)
  REQUIRE(r.tuned_symbolic_architecture);
  std::ifstream symbolic(o.output / "symbolic_architecture.txt");
  std::string first_line;
  std::getline(symbolic, first_line);
  CHECK(first_line == "symbolic architecture of " + best.name());
  for (const char* file : {"kernel.h", "kernel.cpp", "host.cpp", "Makefile", "hls_script.tcl", "config.json"})
    CHECK(fs::exists(o.output / design_folder(best) / file));
  std::ifstream in(o.output / "tuned.json");
  CHECK(nlohmann::ordered_json::parse(in) == cfg);
  fs::remove_all(o.output);
}

TEST_CASE("with sadsl's own models the tuned configuration gives each DRAM port's bytes") {
  kernel k = catalog::fir();
  k.get_param("N").set(256);
  compile_options o;
  o.verify = false;
  o.models = compiler_models();
  o.search.seconds = 0;
  compile_result r = compile(k, o);
  REQUIRE(r.tuned());
  auto cfg = r.tuned_configuration();
  const auto& ports = cfg["offchip_bytes_per_port"];
  REQUIRE(ports.is_object());
  std::vector<std::string> tensors;
  double total = 0;
  for (const auto& [tensor, bytes] : ports.items()) {
    tensors.push_back(tensor);
    CHECK(bytes.get<double>() > 0);
    total += bytes.get<double>();
  }
  std::sort(tensors.begin(), tensors.end());
  CHECK(tensors == std::vector<std::string>{"h", "x", "y"});
  CHECK(total == cfg["offchip_bytes"].get<double>());
  // y is written once: N fp32 elements.
  CHECK(ports["y"] == 4 * 256);
  // The tuned design's symbolic architecture, bound at the tuned point, is its architecture there.
  REQUIRE(r.tuned_symbolic_architecture);
  REQUIRE(r.tuned_architecture);
  CHECK(counts_at(*r.tuned_symbolic_architecture, r.best_point(), k) == counts_of(*r.tuned_architecture));
}

TEST_CASE("the tuned configuration claims the optimum only when every design's search finished") {
  kernel k = catalog::mm();
  for (auto p : k.params()) p.set(256);  // no design's exact search finishes in 20 evaluations
  compile_options o;
  o.verify = false;
  o.models = compiler_models(o.device);
  o.search.seconds = 0;
  o.search.max_evaluations = 18 * 20;
  compile_result r = compile(k, o);
  REQUIRE(r.tuned());
  CHECK(r.tuned_configuration()["complete"] == false);
  CHECK(r.tuned_configuration()["proven_optimal"] == false);
  const std::string unproven = "The best design is not proven optimal over all designs";
  CHECK(r.report().find(unproven) != std::string::npos);
  o.search.max_evaluations = 0;  // to the end: proven
  compile_result all = compile(k, o);
  CHECK(all.tuned_configuration()["complete"] == true);
  CHECK(all.tuned_configuration()["proven_optimal"] == true);
  CHECK(all.report().find(unproven) == std::string::npos);
}

TEST_CASE("a kernel whose loops share one size is tuned with sadsl's models, each loop padded on its own") {
  kernel k = mm_square(60);
  compile_options o;
  o.models = compiler_models(o.device);
  o.search.seconds = 2;
  compile_result r = compile(k, o);
  REQUIRE(r.tuned());
  CHECK(r.spaces.size() == 18);
  auto cfg = r.tuned_configuration();
  // The model gives each tiled loop a size (N for i, N_j and N_k for j and k); the workload's size
  // is the kernel's one param.
  CHECK(cfg["params"]["N_j"] == 60);
  CHECK(cfg["problem_sizes"] == nlohmann::ordered_json::parse(R"({"N": 60})"));
  // The architecture runs the kernel at the largest padded size, each loop within its own.
  const auto& padded = cfg["padded_sizes"];
  int64_t largest = std::max({padded["i"].get<int64_t>(), padded["j"].get<int64_t>(), padded["k"].get<int64_t>()});
  REQUIRE(r.tuned_architecture);
  CHECK(r.tuned_architecture->padding == padding_mode::zero_padded);
  CHECK(r.tuned_architecture->param_values.at(k.get_param("N").id()) == largest);
  CHECK(verify_architecture(*r.tuned_architecture) == "");
}

TEST_CASE("a model whose problem sizes are not the kernel's") {
  SADSL_REQUIRE_SHARED_REFERENCE();
  kernel k = small_mm();
  compile_options o;
  o.verify = false;
  o.models = [](const design&) -> std::optional<model::design_model> {
    return model::import_odyssey_descriptor(gemm_descriptors() / "kernel3_2.json");  // no binding: its own names
  };
  CHECK(message_of([&] { compile(k, o); }) ==
        "the model of design [i] <[i,j],k> (AutoSA descriptor " + (gemm_descriptors() / "kernel3_2.json").string() +
            ") has problem size \"i\", which is no size of kernel \"mm\"");
}

TEST_CASE("a tuned point maps back to the design's factors by loop and chain position") {
  SADSL_REQUIRE_SHARED_REFERENCE();
  kernel k = small_mm();
  auto ds = designs(k);
  const design& d = ds.front();  // [i] <[i,j],k>
  auto m = *odyssey_models(gemm_descriptors())(d);
  std::vector<double> values(m.params.size(), 1);
  for (size_t x = 0; x < m.params.size(); ++x)
    if (m.params[x].name == "k_t2") values[x] = 4;
  design_point p = design_point_of(d, m, values);
  CHECK(p.at({d.band->loop("k"), tile_level::simd}) == 4);
  CHECK(p.at({d.band->loop("i"), tile_level::array_partition}) == 1);
  values.pop_back();
  CHECK(message_of([&] { design_point_of(d, m, values); }) ==
        "a point of model \"[i] <[i,j],k>\" has " + std::to_string(values.size()) + " values for " +
            std::to_string(m.params.size()) + " parameters");
  values.push_back(1);
  for (size_t x = 0; x < m.params.size(); ++x)
    if (m.params[x].name == "k_t2") values[x] = 2.5;
  CHECK(message_of([&] { design_point_of(d, m, values); }) ==
        "model \"[i] <[i,j],k>\": factor k_t2 = 2.5 is not a positive integer");
  design_options no_simd;
  no_simd.simd = false;
  auto plain = designs(k, no_simd);
  CHECK(message_of([&] { design_point_of(plain.front(), m, values); }) ==
        "model \"[i] <[i,j],k>\" tiles loop k with 2 factors, design [i] <[i,j],k> with 1");
}

TEST_CASE("a design's folder names its space loops and tile order") {
  auto ds = designs(catalog::mm());
  CHECK(design_folder(ds.front()) == "i-i_j_k");
  for (const auto& d : ds)
    if (d.name() == "[i,j] <[j,k],i>") CHECK(design_folder(d) == "i_j-j_k_i");
}

TEST_CASE("an output folder that cannot be created") {
  compile_options o;
  o.verify = false;
  o.output = "/proc/sadsl/out";
  CHECK(message_of([&] { compile(catalog::fir(), o); }) ==
        "cannot create the output folder /proc/sadsl/out: No such file or directory");
  o.output = "/dev/null/out";  // a file where a folder should be
  CHECK(message_of([&] { compile(catalog::fir(), o); }) == "cannot create the output folder /dev/null/out: Not a directory");
}

TEST_CASE("a search stopped before it found a point leaves the kernel untuned and says why") {
  SADSL_REQUIRE_SHARED_REFERENCE();
  kernel k = small_mm();
  compile_options o;
  o.verify = false;
  o.models = odyssey_models(gemm_descriptors());
  std::atomic<bool> stop{true};
  o.method = "random";
  o.search.stop = &stop;
  compile_result r = compile(k, o);
  CHECK_FALSE(r.tuned());
  CHECK(r.not_tuned == "no design has a feasible point within the search's budget");
  CHECK_FALSE(r.tuned_architecture);
}
