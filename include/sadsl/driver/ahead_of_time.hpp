#pragma once
// sadsl's own performance models of a kernel, compiled ahead of time into a user's program:
// the CMake function sadsl_add_kernel(<target> PROGRAM <kernel program>) runs a small program of
// the user's, whose main() describes the kernel and calls kernel_program_main(), at build time,
// and compiles the C++ it writes into <target>. Each model registers itself by hash, so
// compile() (with compiler_models()) and the tuner evaluate it without a C++ compiler at run time.
//
//   int main(int argc, char** argv) {
//     sadsl::kernel mm = describe_my_kernel();
//     return sadsl::kernel_program_main(mm, argc, argv);
//   }
#include <string>

#include "sadsl/dsl/kernel.hpp"
#include "sadsl/modeling/performance_model.hpp"

namespace sadsl {

/// One C++ source with the model of every design of `k` that sadsl's builder models (the others
/// are left out, as compiler_models() leaves them untuned), each in its own namespace and
/// registered with the ahead-of-time registry. Deterministic: the same kernel gives the same
/// text. The models keep the problem sizes as parameters, so the same source serves any sizes.
std::string ahead_of_time_source(const kernel& k, const modeling_options& options = {});

/// main() of a kernel program: `<program> <output.cpp>` writes ahead_of_time_source(k) there
/// (atomically, and only when the text changes, so the build does not recompile it) and
/// returns 0; a usage error or a sadsl::error is printed to stderr and gives 1.
int kernel_program_main(const kernel& k, int argc, char** argv, const modeling_options& options = {});

}  // namespace sadsl
