// Computation management on MM, pass by pass: the design each pass returns and the loop nest of
// its schedule for a small concrete tiling (printed from isl's AST). Writes
// generated/mm_passes/passes.txt (or into the directory given as first argument).
#include <sadsl/sadsl.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace sadsl;

int main(int argc, char** argv) try {
  kernel mm = catalog::mm();
  program p = build_program(mm);
  auto b = std::make_shared<const band>(outermost_band(p));
  std::string out = "== the outermost permutable band: [" + fmt::format("{}", fmt::join(b->loop_names(), ", ")) + "]\n";
  out += "== space-loop candidates: [" + join_names(space_loop_candidates(*b)) + "]\n\n";

  design st = space_time(b, {"i", "j"}).value();
  design ap = array_partition(st, tile_orders(st).front()).value();
  design lh = latency_hiding(ap).value();
  design vec = simd(lh).value();
  factor_values tiling{{"i_t1", 4}, {"j_t1", 4}, {"k_t1", 8}, {"i_t2", 2}, {"j_t2", 2}, {"k_t2", 4}};
  auto only = [&](const design& d) {
    factor_values v;
    for (const auto& f : d.factors) v[d.name_of(f.id)] = tiling.at(d.name_of(f.id));
    return v;
  };
  for (const design* d : {&st, &ap, &lh, &vec}) {
    out += d->str();
    out += "loop nest (factors " + fmt::format("{}", fmt::join([&] {
             std::vector<std::string> s;
             for (const auto& [k, v] : only(*d)) s.push_back(k + "=" + std::to_string(v));
             return s;
           }(), ", ")) + "):\n";
    out += dump_schedule_code(p, concrete_schedule(*d, only(*d))) + "\n";
  }
  std::printf("%s", out.c_str());
  std::filesystem::path dir = argc > 1 ? argv[1] : "generated/mm_passes";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "passes.txt") << out;
  return 0;
} catch (const sadsl::error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
