#include "sadsl/driver/odyssey_models.hpp"

#include "sadsl/compute/band.hpp"

namespace sadsl {

namespace {

std::vector<std::string> names(std::vector<loop_id>::const_iterator from, std::vector<loop_id>::const_iterator to) {
  std::vector<std::string> out;
  for (auto l = from; l != to; ++l) out.push_back(l->name());
  return out;
}

// The param p when `extent` is exactly p.
std::optional<param_id> single_param(const affine& extent) {
  if (extent.constant() != 0 || extent.terms().size() != 1 || !extent.is_affine()) return std::nullopt;
  const auto& t = extent.terms().front();
  if (t.coefficient != 1 || t.symbol->kind != detail::symbol_kind::param) return std::nullopt;
  return t.symbol->param_identity();
}

}  // namespace

model::odyssey_binding odyssey_binding_of(const design& d) {
  model::odyssey_binding b;
  for (const auto& l : d.band->loop_ids()) {
    b.loops[l.name()] = l;
    if (auto size = single_param(d.band->extent(l))) b.sizes[l.name()] = *size;
  }
  for (const auto& t : d.band->source->kernel().tensors()) b.tensors[t->name] = t->id();
  return b;
}

model_source odyssey_models(std::filesystem::path folder) {
  return model_source::concurrent([folder](const design& d) -> std::optional<model::design_model> {
    auto inner_from = d.tile_order.end() - static_cast<std::ptrdiff_t>(d.tile_inner);
    auto file = model::find_odyssey_descriptor(folder, names(d.space.begin(), d.space.end()),
                                               names(d.tile_order.begin(), inner_from),
                                               names(inner_from, d.tile_order.end()));
    if (!file) return std::nullopt;
    model::odyssey_binding binding = odyssey_binding_of(d);
    model::design_model m = model::import_odyssey_descriptor(*file, d.name(), &binding);
    m.source = "AutoSA descriptor " + (folder.filename().empty() ? folder.parent_path().filename() : folder.filename())
                                          .string() + "/" + file->filename().string();
    return m;
  });
}

}  // namespace sadsl
