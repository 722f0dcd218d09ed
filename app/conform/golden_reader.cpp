#include "conform/golden_reader.hpp"
#include "layoutscope/core/file_read.hpp"

#include <unistd.h>
#include <zlib.h>

#include <ostream>

namespace layoutscope::conform {

Result<std::vector<std::string>> readJsonLines(const std::string& path) {
    auto ioError = [&](std::string message, const char* rule) {
        return Diagnostic{Severity::Error,    DiagCode::Io, {}, path + ": " + std::move(message), rule,
                          Provenance::PtxText};
    };
    FileReadStatus why = FileReadStatus::Ok;
    const int fd = openRegularFile(path, why);
    if (fd < 0) return ioError(fileReadMessage(why, "the golden file", kMaxGoldenFileBytes), kFileInputRule);
    // gzdopen reads plain files transparently, so one path handles .jsonl and .jsonl.gz; it owns fd now.
    gzFile f = gzdopen(fd, "rb");
    if (!f) {
        ::close(fd);
        return ioError("cannot open the golden file for reading", "");
    }
    std::vector<std::string> lines;
    std::string cur;
    uint64_t total = 0;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) {
        total += uint64_t(n);
        if (total > kMaxGoldenFileBytes) {
            gzclose(f);
            return ioError("more than " + std::to_string(kMaxGoldenFileBytes >> 20) +
                               " MiB of text; a golden file is at most a few MiB",
                           kFileInputRule);
        }
        for (int i = 0; i < n; ++i) {
            if (buf[i] == '\n') {
                if (!cur.empty()) lines.push_back(std::move(cur));
                cur.clear();
            } else {
                cur.push_back(buf[i]);
            }
        }
        if (cur.size() > kMaxJsonLineBytes) {
            gzclose(f);
            return ioError("case " + std::to_string(lines.size() + 1) + " is a line longer than " +
                               std::to_string(kMaxJsonLineBytes >> 20) +
                               " MiB; a golden case is one JSON line",
                           kFileInputRule);
        }
    }
    const bool err = n < 0;
    gzclose(f);
    if (err) return ioError("read error", "");
    if (!cur.empty()) lines.push_back(std::move(cur));
    return lines;
}

std::vector<uint8_t> fromHex(const std::string& hex) {
    auto nib = [](char c) -> uint8_t {
        if (c >= '0' && c <= '9') return uint8_t(c - '0');
        if (c >= 'a' && c <= 'f') return uint8_t(c - 'a' + 10);
        if (c >= 'A' && c <= 'F') return uint8_t(c - 'A' + 10);
        return 0;
    };
    std::vector<uint8_t> out(hex.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) out[i] = uint8_t(nib(hex[2 * i]) << 4 | nib(hex[2 * i + 1]));
    return out;
}

std::string toHex(const uint8_t* p, size_t n) {
    static const char* d = "0123456789abcdef";
    std::string s;
    s.reserve(2 * n);
    for (size_t i = 0; i < n; ++i) {
        s.push_back(d[p[i] >> 4]);
        s.push_back(d[p[i] & 15]);
    }
    return s;
}

static uint32_t mix32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

uint8_t indexPatternByte(uint64_t offset, uint32_t e) {
    const uint64_t k = offset / e;
    const uint32_t b = uint32_t(offset % e);
    uint64_t v;
    if (e == 1)
        v = mix32(uint32_t(k + 1)) & 0xff;
    else if (e == 2)
        v = mix32(uint32_t(k + 1)) & 0xffff;
    else if (e == 4)
        v = uint32_t(k + 1);
    else
        v = k + 1;
    return uint8_t(v >> (8 * b));
}

size_t reportOutcomes(const std::vector<CaseOutcome>& outcomes, std::ostream& out) {
    size_t failed = 0;
    for (const CaseOutcome& o : outcomes) {
        if (o.passed) continue;
        ++failed;
        out << "FAIL " << o.id << ": " << o.firstDifference << "\n";
        for (const std::string& d : o.moreDifferences) out << "  also: " << d << "\n";
        if (o.unlistedDifferences > 0) out << "  ... and " << o.unlistedDifferences << " more\n";
    }
    out << (outcomes.size() - failed) << " passed, " << failed << " failed\n";
    return failed;
}

} // namespace layoutscope::conform
