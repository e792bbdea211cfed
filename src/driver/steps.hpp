#pragma once
// The steps of compile() that are more than one call into another area (src/driver/compile.cpp
// is the flow; this is what its lines call).
#include <chrono>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "sadsl/driver/compile.hpp"

namespace sadsl::driver {

/// Runs `run`, appending its wall time to `steps` under `name`; returns what it returns.
template <class F>
auto timed(std::vector<compile_step>& steps, const char* name, F&& run) {
  auto start = std::chrono::steady_clock::now();
  auto record = [&] {
    steps.push_back({name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
  };
  if constexpr (std::is_void_v<decltype(run())>) {
    run();
    record();
  } else {
    auto result = run();
    record();
    return result;
  }
}

/// Writes `text` to folder/name atomically; nothing when folder is empty.
void write(const std::filesystem::path& folder, const char* name, const std::string& text);

/// The program, its dependences and its loop nest as C (polyhedral.txt).
std::string polyhedral_text(const program& p, const std::vector<dependence>& deps);
/// Every design's description (designs.txt).
std::string designs_text(const std::vector<design>& ds);

/// Checks every design at reduced sizes (o.verify_size) with the interpreter (its concrete
/// schedule) and the executor (its architecture), both at sample_point, on o.threads threads;
/// restores the kernel's sizes. Per design, why building its architecture was refused (a
/// sadsl::error; "" when it was built). sadsl::internal_error naming the design and what differs
/// when a design or an architecture computes something else than the kernel.
std::vector<std::string> verify_designs(const kernel& k, const std::vector<design>& ds, const compile_options& o);

/// The kernel's arithmetic at its current sizes, as the tuner's throughput numerator.
tune::workload workload_of(const program& p);

/// One design space per design that has a model (r.spaces, r.space_design); a design refused at
/// verification (r.refused) is not modeled.
void design_spaces(compile_result& r, const compile_options& o);

/// The symbolic architecture of d; std::nullopt, with `why` set to the builder's message, where
/// sadsl cannot build it (a design tuned with another tool's models).
std::optional<symbolic_architecture> symbolic_or_why(const design& d, std::string& why);

/// Why nothing was tuned when no design has a model: "no design has a performance model", with
/// the first design's reason (compile_result::not_modeled) when the source gave one.
std::string none_modeled(const compile_result& r);

/// symbolic_architecture.txt: the text of `a`, or why there is none.
std::string symbolic_text(const design& d, const std::optional<symbolic_architecture>& a, const std::string& why);

}  // namespace sadsl::driver
