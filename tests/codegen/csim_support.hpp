#pragma once
// Helpers of the codegen tests: generate many HLS projects into one directory, compile them into
// one program (each project in its own namespace, so the simulation headers are parsed once per
// batch), run it in both simulation modes and read back what each testbench printed.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <sadsl/codegen/hls.hpp>
#include <sadsl/comm/executor.hpp>

namespace sadsl::testing {

/// What one testbench printed in one mode.
struct csim_outcome {
  std::vector<std::string> lines;
  std::string status;                          // its last line: PASSED, FAILED: ...
  std::map<std::string, int64_t> fifo_tokens;  // from its "fifo <name> <tokens>" lines
};

/// Runs a shell command; its output (stdout and stderr) and exit status.
inline std::pair<int, std::string> run_command(const std::string& command) {
  std::string out;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return {-1, "popen failed"};
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// Projects written under one directory and simulated as one program.
class csim_batch {
public:
  explicit csim_batch(std::filesystem::path dir) : dir_(std::move(dir)) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }

  /// Writes the project of `a` as namespace `name` and remembers what the executor counted.
  void add(const std::string& name, const architecture& a, const execution_result& expected) {
    hls_options o;
    o.name_space = name;
    write_hls_project(a, dir_ / name, o);
    names_.push_back(name);
    expected_[name] = expected.fifo_tokens;
  }

  size_t size() const { return names_.size(); }
  const std::map<std::string, int64_t>& expected_tokens(const std::string& name) const { return expected_.at(name); }
  const std::vector<std::string>& names() const { return names_; }

  /// Compiles the projects in programs of at most `per_program` projects; "" or the compiler's
  /// complaint.
  std::string compile(size_t per_program) {
    for (size_t first = 0; first < names_.size(); first += per_program) {
      std::string program = "batch" + std::to_string(first / per_program);
      write_driver(program, first, std::min(names_.size(), first + per_program));
      auto [rc, out] = run_command(fmt_compile(program));
      if (rc != 0) return program + ": " + out.substr(0, 4000);
      programs_.push_back(program);
    }
    return "";
  }

  /// Runs every program in `mode`; per project what its testbench printed.
  std::map<std::string, csim_outcome> run(const std::string& mode) const {
    std::map<std::string, csim_outcome> all;
    for (const auto& program : programs_) {
      auto [rc, out] = run_command((dir_ / program).string() + " " + mode);
      (void)rc;
      csim_outcome* current = nullptr;
      size_t at = 0;
      while (at < out.size()) {
        size_t end = out.find('\n', at);
        std::string line = out.substr(at, end == std::string::npos ? std::string::npos : end - at);
        at = end == std::string::npos ? out.size() : end + 1;
        if (line.rfind("design ", 0) == 0) {
          current = &all[line.substr(7)];
          continue;
        }
        if (!current) continue;
        current->lines.push_back(line);
        current->status = line;
        if (line.rfind("fifo ", 0) == 0) {
          size_t space = line.rfind(' ');
          current->fifo_tokens[line.substr(5, space - 5)] = std::stoll(line.substr(space + 1));
        }
      }
    }
    return all;
  }

private:
  // -O0: a sweep's programs run tiny problems, as fast unoptimized (the concurrent mode waits on
  // its threads either way), and compile 2.4 times faster than at -O1 (an LU batch of 24 designs:
  // 42 -> 17 s), which is most of a sweep's time. The projects' own `make csim` (-O1) is run by
  // hls_project_test and the examples.
  std::string fmt_compile(const std::string& program) const {
    return std::string(SADSL_CXX) + " -std=c++14 -O0 -pthread -Wno-unknown-pragmas -I" SADSL_SOURCE_DIR "/include/sadsl/sim -I" +
           dir_.string() + " " + (dir_ / (program + ".cpp")).string() + " -o " + (dir_ / program).string();
  }

  void write_driver(const std::string& program, size_t first, size_t last) const {
    std::ofstream out(dir_ / (program + ".cpp"));
    out << "#include <ap_int.h>\n#include <hls_stream.h>\n#include <sadsl_dataflow.h>\n"
           "#include <cmath>\n#include <cstdio>\n#include <map>\n#include <string>\n#include <vector>\n";
    for (size_t i = first; i < last; ++i)
      out << "#include \"" << names_[i] << "/kernel.cpp\"\n#include \"" << names_[i] << "/host.cpp\"\n";
    out << "int main(int argc, char** argv) {\n";
    for (size_t i = first; i < last; ++i)
      out << "  std::printf(\"design " << names_[i] << "\\n\");\n  std::fflush(stdout);\n  " << names_[i]
          << "::host_main(argc, argv);\n  std::fflush(stdout);\n";
    out << "  return 0;\n}\n";
  }

  std::filesystem::path dir_;
  std::vector<std::string> names_;
  std::vector<std::string> programs_;
  std::map<std::string, std::map<std::string, int64_t>> expected_;
};

}  // namespace sadsl::testing
