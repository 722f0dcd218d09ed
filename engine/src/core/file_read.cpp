// readRegularFile / openRegularFile: the engine's one file reader (layoutscope/core/file_read.hpp).
// POSIX open/fstat/read: standard C++ streams cannot tell a FIFO from a file before blocking on it.
#include "layoutscope/core/file_read.hpp"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace layoutscope {

int openRegularFile(const std::string& path, FileReadStatus& why) {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        why = errno == ENXIO ? FileReadStatus::NotRegular : FileReadStatus::CannotOpen;
        return -1;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        why = FileReadStatus::ReadError;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        why = FileReadStatus::NotRegular;
        return -1;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    why = FileReadStatus::Ok;
    return fd;
}

FileReadStatus readRegularFile(const std::string& path, uint64_t limit, std::string& out) {
    out.clear();
    FileReadStatus why = FileReadStatus::Ok;
    const int fd = openRegularFile(path, why);
    if (fd < 0) return why;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) > limit) {
        ::close(fd);
        return FileReadStatus::TooLarge;
    }
    // The size fstat reports is a hint only (files under /proc say 0): count what arrives.
    constexpr size_t kChunk = size_t(1) << 16;
    FileReadStatus result = FileReadStatus::Ok;
    for (;;) {
        const size_t at = out.size();
        const size_t want = static_cast<size_t>(std::min<uint64_t>(kChunk, limit + 1 - at));
        out.resize(at + want);
        const ssize_t got = ::read(fd, out.data() + at, want);
        if (got < 0) {
            if (errno == EINTR) {
                out.resize(at);
                continue;
            }
            out.resize(at);
            result = FileReadStatus::ReadError;
            break;
        }
        out.resize(at + static_cast<size_t>(got));
        if (out.size() > limit) {
            result = FileReadStatus::TooLarge;
            break;
        }
        if (got == 0) break;
    }
    ::close(fd);
    return result;
}

std::string fileReadMessage(FileReadStatus s, const std::string& what, uint64_t limit) {
    switch (s) {
    case FileReadStatus::Ok:
        break;
    case FileReadStatus::CannotOpen:
        return "cannot open " + what + " for reading";
    case FileReadStatus::NotRegular:
        return what + " is not a regular file (a FIFO, device, socket or directory); only regular files are "
                      "read, so that nothing waits on a pipe or reads an endless device";
    case FileReadStatus::TooLarge: {
        const std::string mib = limit >= (uint64_t(1) << 20) ? std::to_string(limit >> 20) + " MiB"
                                                             : std::to_string(limit) + " B";
        return what + " is larger than the " + mib + " limit (" + std::to_string(limit) + " B)";
    }
    case FileReadStatus::ReadError:
        return "cannot read " + what + " (read error)";
    }
    return {};
}

Result<std::string> readInputFile(const std::string& path, uint64_t limit, const std::string& what,
                                  const char* tooLargeRule) {
    std::string text;
    const FileReadStatus s = readRegularFile(path, limit, text);
    if (s == FileReadStatus::Ok) return text;
    const char* rule = s == FileReadStatus::TooLarge && tooLargeRule ? tooLargeRule : kFileInputRule;
    if (s == FileReadStatus::CannotOpen) rule = "";
    return Diagnostic{Severity::Error,       DiagCode::Io, {}, fileReadMessage(s, what, limit), rule,
                      Provenance::Assumption};
}

} // namespace layoutscope
