// The complete example of docs/knobs.md, compiled and run (keep the two in step).
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <sstream>

// ---- docs/knobs.md example begins ----
#include <sadsl/tune/knobs/knobs.hpp>

#include <cmath>
#include <iostream>

using namespace sadsl::knobs;

// Stands in for an expensive tool run (HLS + place-and-route + a board test) of a streaming
// dot-product engine: `lanes` parallel multiply-adds, an on-chip `buffer` of words, and a data
// `layout`. Resource use is reported even when the run fails; a timing failure reports only the
// netlist size the tool saw before giving up.
outcome synthesize(const configuration& c) {
  const double lanes = double(c["lanes"]), buffer = double(c["buffer"]);
  const bool packed = c.label("layout") == "packed";
  const double elements = 1 << 20;
  const double dsp = lanes * (packed ? 3 : 2) + 4;
  const double bram = std::ceil(2 * buffer / 1024) * std::ceil(lanes / 8);
  const double netlist = 900 * lanes + buffer / 16 + (packed ? 2000 : 0);
  const std::map<std::string, double> resources{{"dsp", dsp}, {"bram", bram}, {"netlist", netlist}};
  if (netlist * (packed ? 1.15 : 1.0) > 40000) return outcome::fail("timing", {{"netlist", netlist}});
  auto measured = resources;
  // Plain layout stalls one cycle in four on bank conflicts; each buffer refill costs 40 cycles.
  measured["cycles"] = elements / lanes * (packed ? 1.0 : 1.25) + elements / buffer * 40;
  return outcome::pass(measured);
}

search_result tune_dot_product(std::ostream& log) {
  problem p;
  p.add_knob(knob::range("lanes", 1, 64));
  p.add_knob(knob::power_of_two("buffer", 64, 16384));
  p.add_knob(knob::enumeration("layout", {"plain", "packed"}));
  const feature cycles = p.add_sensor("cycles");
  const feature dsp = p.add_sensor("dsp"), bram = p.add_sensor("bram"), netlist = p.add_sensor("netlist");
  p.maximize(double(1 << 20) / cycles);  // elements per cycle: a derived feature
  p.require(dsp <= 120);                 // the device's DSP slices
  p.require(bram <= 48);                 // and block RAMs
  p.proxy("timing", netlist);            // timing failures leave only the netlist size

  search_options options;
  options.tests = 40;  // each test is hours of tool time
  options.seed = 7;
  const search_result result = search(p, synthesize, options);

  for (const test_record& t : result.history)
    log << t.config.to_string() << ": " << (t.result.passed ? "passed" : "failed (" + t.result.failure_kind + ")")
        << '\n';
  if (const test_record* best = result.best_test())
    log << "best: " << best->config.to_string() << ", " << *best->quality << " elements/cycle\n";
  return result;
}
// ---- docs/knobs.md example ends ----

TEST_CASE("the documentation's example tunes the dot-product engine") {
  std::ostringstream log;
  const search_result r = tune_dot_product(log);
  REQUIRE(r.best_test() != nullptr);
  CHECK(r.history.size() == 40);
  CHECK(log.str().find("best: " + r.best_test()->config.to_string()) != std::string::npos);
  // The exhaustive optimum of this small space, for comparison.
  problem all;
  all.add_knob(knob::range("lanes", 1, 64));
  all.add_knob(knob::power_of_two("buffer", 64, 16384));
  all.add_knob(knob::enumeration("layout", {"plain", "packed"}));
  double optimum = 0;
  const auto knobs = std::make_shared<const std::vector<knob>>(all.knobs());
  for (std::uint32_t l = 0; l < 64; ++l)
    for (std::uint32_t b = 0; b < 9; ++b)
      for (std::uint32_t k = 0; k < 2; ++k) {
        const outcome o = synthesize(configuration(knobs, {l, b, k}));
        if (o.passed && o.sensors.at("dsp") <= 120 && o.sensors.at("bram") <= 48)
          optimum = std::max(optimum, double(1 << 20) / o.sensors.at("cycles"));
      }
  CHECK(*r.best_test()->quality >= 0.9 * optimum);
}

namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string between(const std::string& text, const std::string& begin, const std::string& end) {
  const auto from = text.find(begin);
  REQUIRE(from != std::string::npos);
  const auto to = text.find(end, from + begin.size());
  REQUIRE(to != std::string::npos);
  return text.substr(from + begin.size(), to - from - begin.size());
}
}  // namespace

TEST_CASE("docs/knobs.md shows exactly this example") {
  const std::string test = read_file(SADSL_SOURCE_DIR "/tests/knobs/example_test.cpp");
  const std::string doc = read_file(SADSL_SOURCE_DIR "/docs/knobs.md");
  const std::string example =
      between(test, "// ---- docs/knobs.md example begins ----\n", "// ---- docs/knobs.md example ends");
  const std::string shown = between(doc, "```cpp\n", "int main() { tune_dot_product(std::cout); }\n```");
  CHECK(shown == example + "\n");  // the doc adds a blank line before main()
}
