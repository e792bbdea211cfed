// sadsl's own models compiled ahead of time (driver/ahead_of_time.hpp): the source a kernel
// program writes holds each modeled design's model once, under the hash the run-time models of
// the same kernel at other sizes have, so compiled programs find them. Compiling it into a program
// is tests/consumer's check (sadsl_add_kernel).
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <string>

#include <sadsl/model/files.hpp>
#include <sadsl/sadsl.hpp>

using namespace sadsl;
namespace fs = std::filesystem;

TEST_CASE("ahead of time: one source with every modeled design's model, hashed as at any size") {
  kernel mm = catalog::mm();
  std::string source = ahead_of_time_source(mm);
  CHECK(source == ahead_of_time_source(mm));  // deterministic
  kernel other = catalog::mm();
  for (auto p : other.params()) p.set(100);
  std::set<std::string> hashes;
  for (const design& d : designs(other)) hashes.insert(model::model_hash(performance_model(d)));
  CHECK(hashes.size() > 1);
  for (const std::string& h : hashes) {
    INFO(h);
    CHECK(source.find("namespace sadsl_model_" + h + " {") != std::string::npos);
    CHECK(source.find("sadsl_register_ahead_of_time_model(sadsl_model_" + h + "_abi())") != std::string::npos);
  }
  size_t namespaces = 0;
  for (size_t at = source.find("\nnamespace sadsl_model_"); at != std::string::npos; at = source.find("\nnamespace sadsl_model_", at + 1))
    ++namespaces;
  CHECK(namespaces == hashes.size());  // each model once
}

TEST_CASE("ahead of time: the kernel program writes its file, and says how to call it") {
  kernel k = catalog::gemv();
  fs::path out = fs::temp_directory_path() / "sadsl_ahead_of_time_test.cpp";
  fs::remove(out);
  std::string program = "kernel-program", file = out.string();
  char* with_file[] = {program.data(), file.data()};
  CHECK(kernel_program_main(k, 2, with_file) == 0);
  CHECK(model::file_has_content(out, ahead_of_time_source(k)));
  fs::remove(out);
  char* without[] = {program.data()};
  CHECK(kernel_program_main(k, 1, without) == 1);
  CHECK_FALSE(fs::exists(out));
}
