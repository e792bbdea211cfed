#pragma once
// Reading and writing the files sadsl is given (descriptors, devices, outputs) so that no input
// can crash or hang it: errors name the file as given and say why (the system's reason), input
// size and JSON nesting are capped, and outputs are replaced atomically.
#include <cstddef>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace sadsl::model {

/// The largest input file read (a descriptor is about 100 KB): /dev/zero and the like stop here.
inline constexpr std::size_t max_input_bytes = std::size_t{256} << 20;
/// The deepest JSON nesting accepted (the reference descriptors nest 29 levels); the walkers of
/// descriptor trees are recursive, so this bounds their stack use.
inline constexpr int max_json_depth = 256;

/// The content of `file`. Throws sadsl::error "cannot read <what> <file>: <reason>", the reason
/// being the system's (e.g. "No such file or directory", "Is a directory") or "larger than 256 MiB".
std::string read_input_file(const std::filesystem::path& file, const std::string& what);

/// Parses JSON text. Throws sadsl::error "<source>: invalid JSON: <reason>" for malformed text,
/// numbers out of range (1e400) and nesting deeper than max_json_depth.
nlohmann::ordered_json parse_json(const std::string& text, const std::string& source);

/// read_input_file + parse_json, the file named as given in errors.
nlohmann::ordered_json read_json_file(const std::filesystem::path& file, const std::string& what);

/// Writes `text` to `file`. A regular file (or a new one) is replaced atomically: the text goes
/// to a temporary file in the same directory, which is renamed over `file`, so readers (and a
/// concurrent writer) see the old or the new content, never a mixture. Anything else (a
/// terminal, /dev/null, a pipe) is written in place. Throws sadsl::error "cannot write <file>:
/// <reason>".
void write_output_file(const std::filesystem::path& file, const std::string& text);

/// True when `file` is a regular file whose content is exactly `text` (read only when the sizes
/// agree, so a device or a huge file is never read).
bool file_has_content(const std::filesystem::path& file, const std::string& text);

}  // namespace sadsl::model
