#pragma once
// Options shared by commands that evaluate or search a model: --size, --point, --device.
#include <string>
#include <utility>
#include <vector>

#include "command.hpp"
#include "sadsl/model/design_model.hpp"
#include "sadsl/tune/device.hpp"

namespace sadsl::cli {

/// "i=1024,j=1024" -> {{"i", 1024}, {"j", 1024}}; errors name the command and option.
std::vector<std::pair<std::string, double>> parse_assignments(const arguments& args, const std::string& option,
                                                              const std::string& text);

/// --device: a built-in device (tune::find_device: u250, u280, u200, vu9p) or a device JSON file
/// (sadsl's form or an Odyssey constraint file); default u250. Errors name the command and option.
tune::device device_option(const arguments& args);
/// The usable resources of device_option().
model::device_limits device_from(const arguments& args);

/// A point of `model` from --size and --point; every parameter that is not inferred needs a value.
std::vector<double> point_from(const arguments& args, const model::design_model& model);

}  // namespace sadsl::cli
