#include "scene/file_kind.hpp"

#include <filesystem>

namespace layoutscope::views {

std::optional<Diagnostic> notRegularFile(const std::string& path) {
    std::error_code ec;
    const std::filesystem::file_status st = std::filesystem::status(path, ec); // stat(): never blocks
    if (ec || !std::filesystem::exists(st) || std::filesystem::is_regular_file(st)) return std::nullopt;
    const char* what = std::filesystem::is_directory(st) ? "a directory"
                       : std::filesystem::is_fifo(st)    ? "a FIFO (named pipe)"
                       : std::filesystem::is_socket(st)  ? "a socket"
                                                         : "a device";
    return Diagnostic{Severity::Error,
                      DiagCode::Io,
                      {},
                      std::string("cannot open the file: it is ") + what +
                          ", not a regular file; only regular files are read (a special file could block or "
                          "never end)",
                      "regular files only",
                      Provenance::Assumption};
}

} // namespace layoutscope::views
