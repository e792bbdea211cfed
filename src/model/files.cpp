#include "sadsl/model/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "sadsl/error.hpp"

namespace sadsl::model {

namespace {

std::string reason(int code) { return std::strerror(code); }

// Closes a descriptor when it goes out of scope.
struct descriptor_guard {
  int fd;
  ~descriptor_guard() {
    if (fd >= 0) ::close(fd);
  }
};

// Writes all of `text` to `fd`; false (errno set) on failure.
bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

[[noreturn]] void write_failed(const std::filesystem::path& file, int code) {
  throw error("cannot write " + file.string() + ": " + reason(code));
}

// A name in the same directory as `file`, unique to this process and call.
std::filesystem::path temporary_sibling(const std::filesystem::path& file) {
  static std::atomic<unsigned> counter{0};
  std::string name = ".";
  name += file.filename().string();
  name += ".tmp";
  name += std::to_string(::getpid());
  name += '-';
  name += std::to_string(counter++);
  return file.parent_path() / name;
}

// True when arrays and objects nest deeper than `limit` (brackets inside strings do not count).
// A scan of its own: nlohmann's callback parser, which could count depth, is quadratic in the
// length of an array of objects.
bool nested_deeper_than(const std::string& text, int limit) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return false;
}

}  // namespace

std::string read_input_file(const std::filesystem::path& file, const std::string& what) {
  auto fail = [&](const std::string& why) -> std::string {
    throw error("cannot read " + what + " " + file.string() + ": " + why);
  };
  descriptor_guard in{::open(file.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) return fail(reason(errno));
  struct stat info {};
  if (::fstat(in.fd, &info) == 0 && S_ISDIR(info.st_mode)) return fail(reason(EISDIR));
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    ssize_t n = ::read(in.fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(reason(errno));
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > max_input_bytes) return fail("larger than 256 MiB");
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

nlohmann::ordered_json parse_json(const std::string& text, const std::string& source) {
  if (nested_deeper_than(text, max_json_depth))
    throw error(source + ": invalid JSON: nested deeper than " + std::to_string(max_json_depth) + " levels");
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw error(source + ": invalid JSON: " + e.what());
  }
}

nlohmann::ordered_json read_json_file(const std::filesystem::path& file, const std::string& what) {
  return parse_json(read_input_file(file, what), file.string());
}

void write_output_file(const std::filesystem::path& file, const std::string& text) {
  struct stat info {};
  if (::stat(file.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    if (S_ISDIR(info.st_mode)) write_failed(file, EISDIR);
    descriptor_guard out{::open(file.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC)};
    if (out.fd < 0 || !write_all(out.fd, text)) write_failed(file, errno);
    return;
  }
  std::filesystem::path staged = temporary_sibling(file);
  int code = 0;
  {
    descriptor_guard out{::open(staged.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)};
    if (out.fd < 0) write_failed(file, errno);
    if (!write_all(out.fd, text)) code = errno;
    if (!code) {
      int closed = ::close(out.fd);
      out.fd = -1;
      if (closed != 0) code = errno;
    }
  }
  if (!code && ::rename(staged.c_str(), file.c_str()) != 0) code = errno;
  if (code) {
    ::unlink(staged.c_str());
    write_failed(file, code);
  }
}

bool file_has_content(const std::filesystem::path& file, const std::string& text) {
  struct stat info {};
  if (::stat(file.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
  if (static_cast<std::size_t>(info.st_size) != text.size()) return false;
  try {
    return read_input_file(file, "file") == text;
  } catch (const error&) {
    return false;
  }
}

}  // namespace sadsl::model
