// Matrix multiplication end to end: describe the kernel in the DSL, build its polyhedral model and
// dependences, and check it with the reference interpreter.
#include <sadsl/sadsl.hpp>

#include <cstdio>

using namespace sadsl;

int main() {
  kernel mm("mm");
  param I = mm.param("I", 1024), J = mm.param("J", 1024), K = mm.param("K", 1024);
  auto A = mm.input<float>("A", {I, K});
  auto B = mm.input<float>("B", {K, J});
  auto C = mm.output<float>("C", {I, J});
  loop i(I), j(J), k(K);
  C(i, j) += A(i, k) * B(k, j);

  program p = build_program(mm);
  std::printf("%s\n", dump_program(p).c_str());
  std::printf("dependences:\n%s\n", dump_dependences(compute_dependences(p)).c_str());
  std::printf("loop nest:\n%s", dump_schedule_code(p, p.schedule()).c_str());
  return 0;
}
