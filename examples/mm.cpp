// Matrix multiplication end to end, as far as sadsl goes today: describe the kernel in the DSL,
// build its polyhedral model and dependences, and check the model with the reference interpreter.
// Writes the model to generated/mm/polyhedral.txt (or the directory given as first argument).
#include <sadsl/sadsl.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace sadsl;

int main(int argc, char** argv) try {
  kernel mm("mm");
  param I = mm.param("I", 1024), J = mm.param("J", 1024), K = mm.param("K", 1024);
  auto A = mm.input<float>("A", {I, K});
  auto B = mm.input<float>("B", {K, J});
  auto C = mm.output<float>("C", {I, J});
  loop i(I), j(J), k(K);
  C(i, j) += A(i, k) * B(k, j);

  program p = build_program(mm);
  std::string model = dump_program(p) + "dependences:\n" + dump_dependences(compute_dependences(p)) +
                      "loop nest:\n" + dump_schedule_code(p, p.schedule());
  std::printf("%s\n", model.c_str());

  // The interpreter runs the schedule on a small instance; compare with plain C++ loops.
  I.set(32), J.set(24), K.set(16);
  buffers data(mm);
  data.randomize_inputs(2026);
  run(p, data);
  const auto &a = data.get<float>("A"), &b = data.get<float>("B"), &c = data.get<float>("C");
  int mismatches = 0;
  for (int x = 0; x < 32; ++x)
    for (int y = 0; y < 24; ++y) {
      float sum = 0;
      for (int z = 0; z < 16; ++z) sum += a[x * 16 + z] * b[z * 24 + y];
      mismatches += sum != c[x * 24 + y];
    }
  std::printf("interpreter check (I=32, J=24, K=16): %s\n", mismatches ? "MISMATCH" : "equal to C++ loops");

  std::filesystem::path out = argc > 1 ? argv[1] : "generated/mm";
  std::filesystem::create_directories(out);
  std::ofstream(out / "polyhedral.txt") << model;
  std::printf("wrote %s\n", (out / "polyhedral.txt").c_str());
  return mismatches ? 1 : 0;
} catch (const sadsl::error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
