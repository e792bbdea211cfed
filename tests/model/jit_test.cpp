// Run-time compilation: caching by content hash, deterministic source, and what happens when the
// compiler is missing or fails (a clear error; the evaluator falls back to the interpreter).
#include <catch2/catch.hpp>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>

#include "sadsl/error.hpp"
#include "sadsl/model/evaluator.hpp"
#include "sadsl/model/odyssey.hpp"
#include "sadsl/tune/device.hpp"
#include "compiled_rows.hpp"
#include "test_support.hpp"

using namespace sadsl::model;

namespace {

design_model kernel3_2() { return import_odyssey_descriptor(testing::descriptor("gemm", "kernel3_2")); }

std::vector<double> optimum_point(const design_model& model) {
  std::vector<double> point(model.params.size());
  for (auto [name, value] : {std::pair{"i", 1024}, {"j", 1024}, {"k", 1024}, {"i_t1", 129}, {"j_t1", 205},
                             {"k_t1", 64}, {"i_t2", 3}, {"j_t2", 41}, {"k_t2", 8}})
    point[model.parameter_index(name)] = value;
  return point;
}

std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// Sets an environment variable for the lifetime of the object.
class scoped_environment {
public:
  scoped_environment(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value, 1);
    else ::unsetenv(name);
  }
  ~scoped_environment() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> old_;
};

std::filesystem::path cached_library(const std::filesystem::path& dir) {
  for (const auto& file : files_in(dir))
    if (file.extension() == ".so") return file;
  return {};
}

jit_options options_in(const testing::temporary_cache& cache) {
  jit_options options;
  options.cache_dir = cache.dir;
  return options;
}

std::string read_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("run-time compilation caches by content hash", "[jit]") {
  testing::temporary_cache cache("jit-cache");
  jit_options options = options_in(cache);
  design_model model = kernel3_2();
  compiled_model first = jit_compile(model, options);
  auto files = files_in(cache.dir);
  REQUIRE(files.size() == 2);  // <hash>-<key>.cpp and .so
  CHECK(files[0].filename().string().starts_with(model_hash(model) + "-"));
  CHECK(files[1].extension() == ".so");
  auto built = std::filesystem::last_write_time(files[1]);
  compiled_model second = jit_compile(kernel3_2(), options);  // loaded from the cache, not rebuilt
  CHECK(files_in(cache.dir) == files);
  CHECK(std::filesystem::last_write_time(files[1]) == built);
  CHECK(std::string(second.abi().model_hash) == model_hash(model));
  CHECK(second.abi().parameter_count == 13);

  std::vector<double> point = optimum_point(model);
  metrics m;
  device_limits u250 = sadsl::tune::builtin_device("u250").limits();
  second.evaluate(point.data(), &m, &u250);
  CHECK(m.latency == 637832.25);
  CHECK(point[model.parameter_index("p9")] == 16);
}

TEST_CASE("the JIT builds the path this machine runs, and the portable and scalar builds agree with it", "[jit]") {
  testing::temporary_cache cache("jit-paths");
  design_model model = kernel3_2();
  device_limits u250 = sadsl::tune::builtin_device("u250").limits();
  jit_options host = options_in(cache), portable = options_in(cache), scalar = options_in(cache);
  portable.host_path_only = false;
  scalar.flags.push_back("-DSADSL_SCALAR_ONLY");  // kept even where the host has AVX2 or AVX-512
  std::vector<metrics> found;
  for (const jit_options* options : {&host, &portable, &scalar}) {
    std::vector<double> point = optimum_point(model);
    metrics m;
    jit_compile(model, *options).evaluate(point.data(), &m, &u250);
    CHECK(m.latency == 637832.25);
    found.push_back(m);
  }
  CHECK(std::memcmp(&found[0], &found[1], sizeof(metrics)) == 0);
  CHECK(std::memcmp(&found[0], &found[2], sizeof(metrics)) == 0);
  // One library per build: with AVX2 or AVX-512 the host's is its own (-DSADSL_AVX2_ONLY or
  // -DSADSL_AVX512_ONLY); without, it is the portable one, whose vector paths are left out at
  // compile time on other machines only.
  std::size_t libraries = 0;
  for (const auto& file : files_in(cache.dir)) libraries += file.extension() == ".so" ? 1 : 0;
#if defined(__x86_64__) && defined(__GNUC__)
  CHECK(libraries == (__builtin_cpu_supports("avx2") ? 3u : 2u));
#else
  CHECK(libraries == 2u);
#endif

  // On a machine with AVX-512 the host's build runs it; the AVX2 path alone (as a machine without
  // AVX-512 runs it) gives the same bits.
  if (testing::host_runs_avx512()) {
    jit_options avx2 = options_in(cache);
    avx2.host_path_only = false;
    avx2.flags.push_back("-DSADSL_AVX2_ONLY");
    std::vector<double> point = optimum_point(model);
    metrics m;
    jit_compile(model, avx2).evaluate(point.data(), &m, &u250);
    CHECK(std::memcmp(&found[0], &m, sizeof(metrics)) == 0);
  }

  // Two paths alone at once is refused by the source itself, with the reason.
  portable.flags.insert(portable.flags.end(), {"-DSADSL_SCALAR_ONLY", "-DSADSL_AVX2_ONLY"});
  CHECK_THROWS_WITH(jit_compile(model, portable),
                    Catch::Contains("at most one of SADSL_SCALAR_ONLY, SADSL_AVX2_ONLY and SADSL_AVX512_ONLY"));
}

TEST_CASE("emitted source builds without a warning (-Wall -Wextra -Werror) with GCC and with Clang", "[jit]") {
  // An imported model (tile counts, inferred packing factors), one with closed-form sums (alone
  // and two of one c, d and m) and one without parameters, every path.
  design_model sums = testing::sized_model("warnings_test", {"L", "H"});
  expr lo = sums.param("L"), hi = sums.param("H"), i = expr::index(0, "i");
  module_latency pe;
  pe.name = "PE";
  pe.main = make_leaf(sum(i, lo, hi, ceil_div(3 + i * hi, 5)) + sum(i, expr(0), hi, ceil_div(3 + i * hi, 5)));
  sums.modules = {pe};
  sums.dsp = sum(i, lo, hi, floor_div(i * lo, 7));
  design_model constant = testing::sized_model("constant", {});
  constant.modules = {pe};
  constant.modules[0].main = make_leaf(7);
  std::vector<std::string> compilers;
  for (const char* name : {"g++", "clang++"}) {
    const char* path = std::getenv("PATH");
    for (std::string rest = path ? path : ""; !rest.empty();) {
      std::string dir = rest.substr(0, rest.find(':'));
      rest = rest.find(':') == std::string::npos ? "" : rest.substr(rest.find(':') + 1);
      if (!dir.empty() && std::filesystem::exists(std::filesystem::path(dir) / name)) {
        compilers.push_back(name);
        break;
      }
    }
  }
  REQUIRE(!compilers.empty());
  testing::temporary_cache cache("jit-warnings");
  for (const std::string& compiler : compilers)
    for (const design_model& model : {kernel3_2(), sums, constant}) {
      INFO(compiler << ", model " << model.name);
      jit_options options = options_in(cache);
      options.compiler = compiler;
      options.host_path_only = false;
      options.flags.insert(options.flags.end(), {"-Wall", "-Wextra", "-Werror"});
      CHECK_NOTHROW(jit_compile(model, options));
    }
}

TEST_CASE("emitted source is deterministic and matches the checked-in copy", "[jit]") {
  design_model model = import_odyssey_descriptor(testing::descriptor("gemm", "kernel3_2"), "gemm_kernel3_2");
  std::string source = emit_cpp(model);
  CHECK(source == emit_cpp(import_odyssey_descriptor(testing::descriptor("gemm", "kernel3_2"), "gemm_kernel3_2")));
  CHECK(source == read_file(std::filesystem::path(SADSL_SOURCE_DIR) / "generated" / "model" / "gemm_kernel3_2.cpp"));
  CHECK(model_hash(model) == model_hash(kernel3_2()));  // the name is not part of the code
}

TEST_CASE("a missing compiler is a clear error and the evaluator falls back to the interpreter", "[jit][errors]") {
  testing::temporary_cache cache("jit-missing");
  jit_options options = options_in(cache);
  options.compiler = "sadsl-no-such-compiler";
  CHECK_THROWS_WITH(jit_compile(kernel3_2(), options), "C++ compiler \"sadsl-no-such-compiler\" not found");
  {
    scoped_environment no_override("SADSL_CXX", nullptr);
    scoped_environment empty_path("PATH", "/nonexistent");
    CHECK_THROWS_WITH(find_cxx_compiler({}), "no C++ compiler found (set SADSL_CXX or put c++, g++ or clang++ on PATH)");
  }
  evaluator_options fallback;
  fallback.use_ahead_of_time = false;
  fallback.jit = options;
  evaluator ev(kernel3_2(), fallback);
  CHECK(ev.active_backend() == backend::interpreter);
  CHECK(ev.fallback_reason() == "C++ compiler \"sadsl-no-such-compiler\" not found");
  std::vector<double> point = optimum_point(ev.model());
  CHECK(ev.evaluate(point, sadsl::tune::builtin_device("u250").limits()).latency == 637832.25);
}

TEST_CASE("a failing compiler, a broken cache entry and an unusable cache directory", "[jit][errors]") {
  testing::temporary_cache cache("jit-broken");
  jit_options options = options_in(cache);
  options.compiler = "false";
  std::string compiler = find_cxx_compiler(options);
  CHECK_THROWS_WITH(jit_compile(kernel3_2(), options),
                    "compiling model \"kernel3_2\" with " + compiler + " failed (exit 1): ");

  options.compiler.clear();
  jit_compile(kernel3_2(), options);
  std::filesystem::path library = cached_library(cache.dir);
  std::ofstream(library, std::ios::trunc) << std::string(100, 'x');
  CHECK_THROWS_WITH(jit_compile(kernel3_2(), options),
                    "cannot load compiled model \"kernel3_2\": " + library.string() + ": invalid ELF header");

  options.cache_dir = "/proc/sadsl-model-cache";
  CHECK_THROWS_WITH(jit_compile(kernel3_2(), options), "cannot create the model cache directory /proc/sadsl-model-cache");
}

namespace {

// Replaces the cached library of `model` by one compiled from `source` (to provoke load errors).
void plant_library(const std::filesystem::path& library, const std::string& source) {
  std::filesystem::path file = library.parent_path() / "planted.cpp";
  std::ofstream(file) << source;
  std::string command = find_cxx_compiler({}) + " -shared -fPIC -o " + library.string() + " " + file.string();
  REQUIRE(std::system(command.c_str()) == 0);
}

}  // namespace

TEST_CASE("a cached library without the model's entry point or with another ABI version", "[jit][errors]") {
  testing::temporary_cache cache("jit-planted");
  jit_options options = options_in(cache);
  design_model model = kernel3_2();
  jit_compile(model, options);
  std::filesystem::path library = cached_library(cache.dir);
  plant_library(library, "extern \"C\" int unrelated() { return 1; }\n");
  CHECK_THROWS_WITH(jit_compile(model, options),
                    "compiled model \"kernel3_2\" in " + library.string() + " lacks its entry point");
  plant_library(library, "struct table { unsigned version, count; };\n"
                         "extern \"C\" const void* sadsl_model_" + model_hash(model) + "_abi() {\n"
                         "  static const table t = {99, 13};\n  return &t;\n}\n");
  CHECK_THROWS_WITH(jit_compile(model, options), "compiled model \"kernel3_2\" has ABI version 99");
}

TEST_CASE("a cache directory where the source cannot be written", "[jit][errors]") {
  testing::temporary_cache cache("jit-unwritable");
  jit_options options = options_in(cache);
  jit_compile(kernel3_2(), options);
  std::filesystem::path library = cached_library(cache.dir);
  std::filesystem::path source = library;
  source.replace_extension(".cpp");
  std::filesystem::remove(library);
  std::filesystem::remove(source);
  // A directory where the source file should go makes publishing it fail.
  std::filesystem::create_directory(source);
  CHECK_THROWS_WITH(jit_compile(kernel3_2(), options), "cannot write " + source.string() + ": Is a directory");

  // /proc/self is a directory in which nobody, not even root, can create files.
  options.cache_dir = "/proc/self";
  CHECK_THROWS_WITH(jit_compile(kernel3_2(), options),
                    "cannot write /proc/self/" + source.filename().string() + ": No such file or directory");
}

TEST_CASE("a compilation stops when asked to or at its deadline", "[jit][errors]") {
  testing::temporary_cache cache("jit-stopped");
  jit_options options = options_in(cache);
  std::atomic<bool> stop{true};
  options.stop = &stop;
  CHECK_THROWS_WITH(jit_compile(kernel3_2(), options), "compiling model \"kernel3_2\" stopped: interrupted");
  options.stop = nullptr;
  options.deadline = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(jit_compile(kernel3_2(), options), "compiling model \"kernel3_2\" stopped: the time budget ran out");
  // Nothing half-written is left in the cache, and a later compilation succeeds.
  for (const auto& file : files_in(cache.dir)) CHECK(file.extension() != ".so");
  options.deadline.reset();
  CHECK(jit_compile(kernel3_2(), options).abi().parameter_count == 13);
}

namespace {

// A compiler that records its arguments in `log`, says `version` when asked, and fails to compile.
std::string fake_compiler(const std::filesystem::path& dir, const std::string& name, const std::string& version,
                          const std::filesystem::path& log) {
  std::filesystem::path script = dir / name;
  std::ofstream(script) << "#!/bin/sh\necho \"$@\" >> " << log.string() << "\n"
                        << "if [ \"$1\" = --version ]; then printf '" << version << "'; exit 0; fi\nexit 1\n";
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script.string();
}

}  // namespace

TEST_CASE("with GCC the JIT leaves out the passes that cost only compile time; other compilers get the flags as given",
          "[jit]") {
  testing::temporary_cache cache("jit-lean");
  jit_options options = options_in(cache);
  const std::string lean = "-fno-schedule-insns2 -fno-tree-pre -fno-gcse -fno-tree-slp-vectorize -fno-tree-pta "
                           "-fno-tree-vrp -fno-expensive-optimizations -fno-inline-small-functions";
  auto compile_line = [&](const std::string& name, const std::string& version, bool lean_passes) {
    std::filesystem::path log = cache.dir / (name + ".args");
    jit_options given = options;
    given.compiler = fake_compiler(cache.dir, name, version, log);
    given.lean_gcc_passes = lean_passes;
    CHECK_THROWS_WITH(jit_compile(kernel3_2(), given),
                      Catch::StartsWith("compiling model \"kernel3_2\" with " + given.compiler + " failed (exit 1)"));
    std::string args = read_file(log);
    REQUIRE(args.find("-O3") != std::string::npos);
    return args;
  };
  std::string gcc = "g++ (Debian 12.2.0-14) 12.2.0\\nCopyright (C) 2022 Free Software Foundation, Inc.\\n";
  std::string with_gcc = compile_line("gcc", gcc, true);
  CHECK(with_gcc.find("--version\n") == 0);  // asked once, before compiling
  // After the user's flags (-O3), so that they switch off what -O3 switched on.
  CHECK(with_gcc.find(" " + lean + " ") != std::string::npos);
  CHECK(with_gcc.find(lean) > with_gcc.find("-O3"));
  CHECK(compile_line("gcc-as-given", gcc, false).find("-fno-") == std::string::npos);
  std::string clang = "Debian clang version 14.0.6\\nTarget: x86_64-pc-linux-gnu\\n";
  CHECK(compile_line("clang", clang, true).find("-fno-") == std::string::npos);
}
