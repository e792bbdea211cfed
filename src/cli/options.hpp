#pragma once
// Option values shared by the commands, each checked with an exact message naming the command
// and the option: name=integer lists (--size, --point), whole numbers, seconds, devices.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sadsl/model/design_model.hpp"
#include "sadsl/tune/device.hpp"

namespace sadsl::cli {

/// The largest value of a size or tiling factor: models compute in doubles, exact up to 2^53.
inline constexpr std::int64_t max_parameter_value = std::int64_t{1} << 53;

/// "i=1024,j=1024" -> {{"i", 1024}, {"j", 1024}}: every value in [1, 2^53], no name twice.
/// Throws usage_error "sadsl <command>: --<option>: ...".
std::vector<std::pair<std::string, std::int64_t>> parse_assignments(const std::string& command, const std::string& option,
                                                                    const std::string& text);

/// A whole number in [0, highest] written in decimal digits only (no sign, fraction or exponent).
std::uint64_t parse_whole(const std::string& command, const std::string& option, const std::string& text,
                          std::uint64_t highest);

/// A finite number >= 0 (seconds), or > 0 when `positive`.
double parse_number(const std::string& command, const std::string& option, const std::string& text, bool positive);

/// --device: a built-in device (u250, u280, u200, vu9p) or a device JSON file. Default u250.
tune::device parse_device(const std::string& command, const std::string& text);

/// A point of `model` from --size and --point; every parameter that is not inferred needs a value.
std::vector<double> point_from(const std::string& command, const std::string& sizes, const std::string& points,
                               const model::design_model& model);

}  // namespace sadsl::cli
