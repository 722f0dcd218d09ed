#pragma once
/// The one way the engine (and the CLI and GUI through it) reads a file named by the user: regular files
/// only, opened with O_NONBLOCK so that naming a FIFO never blocks the open, checked with fstat before a
/// byte is read (a FIFO, /dev/stdin, /dev/zero or a directory is refused by name), and read with a byte
/// budget counted as the bytes arrive (files under /proc report size 0), so nothing blocks or grows
/// without bound.
#include "layoutscope/core/result.hpp"

#include <cstdint>
#include <string>

namespace layoutscope {

enum class FileReadStatus {
    Ok,
    CannotOpen, ///< missing, or no permission
    NotRegular, ///< a FIFO, a device, a socket or a directory
    TooLarge,   ///< more than the limit (out then holds limit + 1 bytes at most)
    ReadError,  ///< the read failed (e.g. /proc/self/mem)
};

/// Reads `path` into `out` when it is a regular file of at most `limit` bytes.
[[nodiscard]] FileReadStatus readRegularFile(const std::string& path, uint64_t limit, std::string& out);

/// Opens `path` read-only when it is a regular file and returns its descriptor (the caller closes it), else
/// -1 with `why` set. For readers that stream (zlib's gzdopen); O_NONBLOCK is cleared again.
[[nodiscard]] int openRegularFile(const std::string& path, FileReadStatus& why);

/// The rule every refusal names (README.md, "Input files").
inline constexpr const char* kFileInputRule = "input files: regular files only, within a size limit";

/// Plain words for a status that is not Ok: "<what> is not a regular file (a FIFO, device or directory);
/// only regular files are read". `what` names the kind of file ("the scenario file"); `limit` is quoted
/// for TooLarge.
[[nodiscard]] std::string fileReadMessage(FileReadStatus s, const std::string& what, uint64_t limit);

/// readRegularFile with an Io diagnostic (rule kFileInputRule, or `tooLargeRule` for TooLarge when given).
[[nodiscard]] Result<std::string> readInputFile(const std::string& path, uint64_t limit,
                                                const std::string& what, const char* tooLargeRule = nullptr);

} // namespace layoutscope
