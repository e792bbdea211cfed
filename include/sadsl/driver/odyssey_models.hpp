#pragma once
// Performance models written by AutoSA (Odyssey's design descriptors), as a model_source for
// compile(), until sadsl's compiler builds its own. A design's model is the descriptor in the
// folder with the same space loops and tile-order class (model::find_odyssey_descriptor), its
// names bound to the kernel's objects: the descriptor's loops to the band loops of the same name,
// its problem sizes to the param bounding that loop, its arrays to the tensors of the same name.
#include <filesystem>

#include "sadsl/driver/compile.hpp"
#include "sadsl/model/odyssey.hpp"

namespace sadsl {

/// The binding of design d's kernel for descriptors that spell its loops and tensors as the
/// kernel does. A loop whose extent is not one param gets no problem size.
model::odyssey_binding odyssey_binding_of(const design& d);

/// Models from the descriptors (*.json) in `folder`, each named after the design; its source
/// says "AutoSA descriptor <folder name>/<file name>". The folder is read at each call;
/// sadsl::error when it cannot be read or a matching descriptor is malformed.
model_source odyssey_models(std::filesystem::path folder);

}  // namespace sadsl
