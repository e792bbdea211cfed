// Model parameters know where they come from: the importer maps Odyssey's spellings to origins
// (problem sizes, tiling factors of loops, packing factors of tensors' I/O groups), optionally
// bound to a kernel's objects; descriptors are matched to designs by their content.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>

#include "sadsl/error.hpp"
#include "sadsl/model/odyssey.hpp"
#include "test_support.hpp"

using namespace sadsl::model;
using json = nlohmann::ordered_json;

namespace {


std::map<std::string, std::string> described(const design_model& m) {
  std::map<std::string, std::string> text;
  for (const parameter& p : m.params) text[p.name] = describe(p.origin);
  return text;
}


}  // namespace

TEST_CASE("kernel3_2's parameters have origins read from the descriptor's structure", "[odyssey][origins]") {
  design_model m = import_odyssey_descriptor(testing::descriptor("gemm", "kernel3_2"));
  CHECK(m.name == "kernel3_2");
  CHECK(m.source == "AutoSA descriptor " + testing::descriptor("gemm", "kernel3_2").string());
  std::map<std::string, std::string> expected{
      {"i", "problem size i"},
      {"j", "problem size j"},
      {"k", "problem size k"},
      {"i_t1", "tiling factor of loop i (array_partition)"},
      {"j_t1", "tiling factor of loop j (array_partition)"},
      {"k_t1", "tiling factor of loop k (array_partition)"},
      {"i_t2", "tiling factor of loop i (latency_hiding)"},
      {"j_t2", "tiling factor of loop j (latency_hiding)"},
      {"k_t2", "tiling factor of loop k (simd)"},
      {"p9", "packing factor of tensor A (read group, I/O level 2)"},
      {"p10", "packing factor of tensor B (read group, I/O level 2)"},
      {"p11", "packing factor used by no I/O module"},  // _2 designs keep C on chip: no reload modules
      {"p12", "packing factor of tensor C (output group, I/O level 1)"},
  };
  CHECK(described(m) == expected);
  // Roles follow from the origins.
  CHECK(m.params[m.parameter_index("i")].role() == parameter_role::problem_size);
  CHECK(m.params[m.parameter_index("i_t1")].role() == parameter_role::tile);
  CHECK(m.params[m.parameter_index("j_t2")].role() == parameter_role::latency_tile);
  CHECK(m.params[m.parameter_index("k_t2")].role() == parameter_role::simd);
  CHECK(m.params[m.parameter_index("p11")].role() == parameter_role::pack);
  // The two factors of a loop name the same loop; different loops differ.
  auto loop_of = [&](const std::string& name) { return std::get<sadsl::factor_id>(m.params[m.parameter_index(name)].origin).loop; };
  CHECK(loop_of("i_t1") == loop_of("i_t2"));
  CHECK(loop_of("i_t1") != loop_of("j_t1"));
  CHECK(loop_of("k_t1").name() == "k");
  CHECK(origin_json(m.params[m.parameter_index("p12")].origin).dump() ==
        R"j({"kind":"packing_factor","tensor":"C","group":"output","io_level":1,)j"
        R"j("description":"packing factor of tensor C (output group, I/O level 1)"})j");
  CHECK(origin_json(m.params[m.parameter_index("i_t2")].origin).dump() ==
        R"j({"kind":"tiling_factor","loop":"i","level":"latency_hiding","description":"tiling factor of loop i (latency_hiding)"})j");
  CHECK(origin_json(m.params[m.parameter_index("k")].origin).dump() ==
        R"j({"kind":"problem_size","param":"k","description":"problem size k"})j");
  CHECK(origin_json(m.params[m.parameter_index("p11")].origin).dump() ==
        R"j({"kind":"packing_factor","tensor":null,"description":"packing factor used by no I/O module"})j");
}

TEST_CASE("packing factors: reload modules are the flow group, drains the output group", "[odyssey][origins]") {
  auto k00 = described(import_odyssey_descriptor(testing::descriptor("gemm", "kernel0_0")));
  CHECK(k00["p9"] == "packing factor of tensor A (read group, I/O level 1)");
  CHECK(k00["p10"] == "packing factor of tensor B (read group, I/O level 2)");
  CHECK(k00["p11"] == "packing factor of tensor C (flow group, I/O level 1)");  // C_IO_L1_in and C_IO_L1_out
  CHECK(k00["p12"] == "packing factor of tensor C (output group, I/O level 1)");
  // k is a space loop: C leaves the array through C_IO_L2_out, which is no drain.
  auto k22 = described(import_odyssey_descriptor(testing::descriptor("gemm", "kernel2_2")));
  CHECK(k22["p11"] == "packing factor of tensor C (flow group, I/O level 2)");
  auto cnn30 = described(import_odyssey_descriptor(testing::descriptor("cnn", "kernel3_0")));
  CHECK(cnn30["p15"] == "packing factor used by no I/O module");
  CHECK(cnn30["p16"] == "packing factor of tensor cout (flow group, I/O level 2)");
  CHECK(cnn30["p17"] == "packing factor of tensor cout (output group, I/O level 1)");
  CHECK(cnn30["i_t2"] == "tiling factor of loop i (simd)");
  CHECK(cnn30["p"] == "problem size p");
}

TEST_CASE("every descriptor's parameters all have origins", "[odyssey][origins]") {
  for (const auto& [kernel, designs] : {std::pair{"gemm", testing::gemm_designs()}, std::pair{"cnn", testing::cnn_designs()}}) {
    for (const std::string& design : designs) {
      INFO(kernel << "/" << design);
      design_model m = import_odyssey_descriptor(testing::descriptor(kernel, design));
      for (const parameter& p : m.params) {
        if (const auto* f = std::get_if<sadsl::factor_id>(&p.origin)) {
          CHECK(f->loop.valid());
          // Odyssey spells a factor <loop>_t<position>; the origin was found without reading it.
          CHECK(p.name.rfind(f->loop.name() + "_t", 0) == 0);
        }
        if (const auto* pack = std::get_if<sadsl::pack_id>(&p.origin)) CHECK(pack->tensor.valid());
        if (const auto* size = std::get_if<problem_size_origin>(&p.origin)) CHECK(size->param.name() == p.name);
      }
    }
  }
}

TEST_CASE("a binding maps Odyssey's names to the kernel's objects", "[odyssey][origins]") {
  odyssey_binding binding;
  for (const char* name : {"i", "j", "k"}) {
    binding.loops[name] = sadsl::loop_id::fresh(name);
    binding.sizes[name] = sadsl::param_id::fresh(std::string(1, static_cast<char>(std::toupper(name[0]))));
  }
  for (const char* name : {"A", "B", "C"}) binding.tensors[name] = sadsl::tensor_id::fresh(name);
  design_model m = import_odyssey_descriptor(testing::descriptor("gemm", "kernel3_2"), "mm_ij", &binding);
  CHECK(m.name == "mm_ij");
  CHECK(std::get<sadsl::factor_id>(m.params[m.parameter_index("j_t2")].origin).loop == binding.loops["j"]);
  CHECK(std::get<problem_size_origin>(m.params[m.parameter_index("k")].origin).param == binding.sizes["k"]);
  CHECK(std::get<sadsl::pack_id>(m.params[m.parameter_index("p9")].origin).tensor == binding.tensors["A"]);
  CHECK(describe(m.params[m.parameter_index("k")].origin) == "problem size K");

  json d = testing::descriptor_json();
  odyssey_binding partial = binding;
  partial.loops.erase("j");
  CHECK(testing::import_error(d, &partial) == "kernel3_2.json: /params/1/name: the binding has no loop \"j\"");
  partial = binding;
  partial.sizes.erase("i");
  CHECK(testing::import_error(d, &partial) == "kernel3_2.json: /params/0/name: the binding has no problem size \"i\"");
  partial = binding;
  partial.tensors.erase("B");
  CHECK(testing::import_error(d, &partial) ==
        "kernel3_2.json: module \"B_IO_L2_in\": /memory/B_IO_L2_in/array: the binding has no tensor \"B\"");
}

TEST_CASE("descriptors whose structure gives no origin", "[odyssey][origins][errors]") {
  json d = testing::descriptor_json();
  d["params"][0].erase("split_by");
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/3: tiling factor \"i_t1\" is on no loop's split_by chain");
  d = testing::descriptor_json();
  d["params"][3]["split_by"] = "p9";
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/3/split_by: \"p9\" is not a tiling factor");
  d = testing::descriptor_json();
  d["params"][1]["split_by"] = "i_t1";
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/1/split_by: \"i_t1\" is on the chains of loops \"i\" and \"j\"");
  d = testing::descriptor_json();
  d["params"][4]["name"] = "i_t1";
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/4/name: parameter \"i_t1\" is declared twice (also at /params/3)");
  d = testing::descriptor_json();
  d["memory"]["B_IO_L2_in"]["data_pack_factor_inter"] = "p9";
  CHECK(testing::import_error(d) == "kernel3_2.json: module \"B_IO_L2_in\": /memory/B_IO_L2_in/data_pack_factor_inter: packing "
                           "factor \"p9\" is also used by module \"A_IO_L2_in\" of another I/O group or level");
}

TEST_CASE("a descriptor's design is read from its content and maps back to it", "[odyssey][design]") {
  odyssey_design k32 = read_odyssey_design(testing::descriptor("gemm", "kernel3_2"));
  CHECK(k32.space_loops == std::vector<std::string>{"i", "j"});
  CHECK(k32.tile_order == std::vector<std::string>{"i", "j", "k"});
  odyssey_design k01 = read_odyssey_design(testing::descriptor("gemm", "kernel0_1"));
  CHECK(k01.space_loops == std::vector<std::string>{"i"});
  CHECK(k01.tile_order == std::vector<std::string>{"k", "j", "i"});
  CHECK(read_odyssey_design(testing::descriptor("cnn", "kernel4_2")).tile_order == std::vector<std::string>{"o", "i", "r", "c"});

  for (const auto& [kernel, designs] : {std::pair{"gemm", testing::gemm_designs()}, std::pair{"cnn", testing::cnn_designs()}}) {
    std::filesystem::path folder = testing::odyssey_dir() / "descriptors" / kernel;
    std::set<std::pair<std::set<std::string>, std::vector<std::string>>> seen;
    for (const std::string& design : designs) {
      INFO(kernel << "/" << design);
      std::filesystem::path file = testing::descriptor(kernel, design);
      odyssey_design d = read_odyssey_design(file);
      std::set<std::string> space(d.space_loops.begin(), d.space_loops.end());
      CHECK(seen.insert({space, d.tile_order}).second);  // unique within its folder
      // Its class with the last loop innermost, and (CNN) with the last two innermost, map back.
      for (std::size_t inner = 1; inner <= (std::string(kernel) == "cnn" ? 2u : 1u); ++inner) {
        std::vector<std::string> outer(d.tile_order.begin(), d.tile_order.end() - static_cast<long>(inner));
        std::vector<std::string> innermost(d.tile_order.end() - static_cast<long>(inner), d.tile_order.end());
        std::reverse(outer.begin(), outer.end());  // the outer loops are a set
        CHECK(find_odyssey_descriptor(folder, d.space_loops, outer, innermost) == file);
      }
    }
    CHECK(seen.size() == designs.size());
  }
}

TEST_CASE("sadsl's Theorem 3.1 classes find Odyssey's MM descriptors", "[odyssey][design]") {
  std::filesystem::path gemm = testing::odyssey_dir() / "descriptors" / "gemm";
  auto find = [&](std::vector<std::string> space, std::vector<std::string> outer, std::vector<std::string> inner) {
    auto found = find_odyssey_descriptor(gemm, space, outer, inner);
    return found ? found->filename().string() : "(none)";
  };
  CHECK(find({"i", "j"}, {"i", "j"}, {"k"}) == "kernel3_2.json");  // <[i,j],k>
  CHECK(find({"j", "i"}, {"j", "k"}, {"i"}) == "kernel3_1.json");  // <[j,k],i>
  CHECK(find({"i", "j"}, {"i", "k"}, {"j"}) == "kernel3_0.json");  // <[i,k],j>
  CHECK(find({"k"}, {"i", "j"}, {"k"}) == "kernel2_2.json");
  CHECK(find({"j", "k"}, {"i", "k"}, {"j"}) == "kernel5_0.json");
  CHECK(find({"i", "j", "k"}, {"i", "j"}, {"k"}) == "(none)");
  CHECK(find({"i"}, {"i"}, {"j", "k"}) == "kernel0_2.json");  // the innermost loops in order
  CHECK(find({"i"}, {"i"}, {"k", "j"}) == "kernel0_0.json");
  CHECK(find({"i"}, {"j"}, {"i", "k"}) == "(none)");
  CHECK_THROWS_WITH(find_odyssey_descriptor(gemm / "missing", {"i"}, {"i", "j"}, {"k"}),
                    "cannot read descriptor folder " + (gemm / "missing").string() + ": No such file or directory");
}

TEST_CASE("descriptors whose design cannot be read", "[odyssey][design][errors]") {
  json d = testing::descriptor_json();
  d["compute"]["PE"]["dims"][0] = "(i_t1/j_t2)";
  CHECK_THROWS_WITH(read_odyssey_design(d, "k.json"),
                    "k.json: module \"PE\": /compute/PE/dims/0: \"(i_t1/j_t2)\" names 2 tiled loops (i, j), expected one");
  d = testing::descriptor_json();
  d["latency"]["PE"]["child"]["child"]["child"]["type"] = "block";
  CHECK_THROWS_WITH(read_odyssey_design(d, "k.json"),
                    "k.json: module \"PE\": /latency/PE/child/child/child: a \"block\" node above the \"array\" mark "
                    "(expected only loops and marks)");
  d = testing::descriptor_json();
  d["latency"]["PE"]["bounds"][1] = "8";
  CHECK_THROWS_WITH(read_odyssey_design(d, "k.json"),
                    "k.json: module \"PE\": /latency/PE/bounds/1: \"8\" names 0 tiled loops, expected one");
}

TEST_CASE("more descriptors whose structure or design cannot be read", "[odyssey][design][errors]") {
  json d = testing::descriptor_json();
  d["params"][0]["split_by"] = "x_t1";
  CHECK(testing::import_error(d) == "kernel3_2.json: /params/0/split_by: unknown parameter \"x_t1\"");
  d = testing::descriptor_json();
  d["memory"]["A_buffer_in"] = d["memory"]["A_IO_L2_in"];
  d["attr"]["A_buffer_in"] = d["attr"]["A_IO_L2_in"];
  d["memory"].erase("A_IO_L2_in");
  CHECK(testing::import_error(d) ==
        "kernel3_2.json: module \"A_buffer_in\": /memory/A_buffer_in: the module uses a packing factor but its name gives "
        "no I/O level (_IO_L<n>)");
  d = testing::descriptor_json();
  d["compute"]["PE"]["dims"] = json::array();
  CHECK_THROWS_WITH(read_odyssey_design(d, "k.json"), "k.json: module \"PE\": /compute/PE/dims: expected a non-empty list");
  // Two descriptors of one design in a folder: the mapping would be a guess.
  testing::temporary_cache folder("same-design");
  std::filesystem::copy_file(testing::descriptor("gemm", "kernel3_2"), folder.dir / "a.json");
  std::filesystem::copy_file(testing::descriptor("gemm", "kernel3_2"), folder.dir / "b.json");
  CHECK_THROWS_WITH(find_odyssey_descriptor(folder.dir, {"i", "j"}, {"i", "j"}, {"k"}),
                    "descriptors " + (folder.dir / "a.json").string() + " and " + (folder.dir / "b.json").string() +
                        " have the same design");
}
