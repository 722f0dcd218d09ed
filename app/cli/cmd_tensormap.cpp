// layoutscope-cli tensormap decode [--json] [--name NAME] (HEX... | --file F | < F): a 128-byte
// CUtensorMap (hex string, cuda-gdb x/16xg or x/32xw text, or a raw .bin) -> the scenario `tensormap`
// directive that encodes it, or a golden/tma-style JSON object (engine: tensor_map_decode.hpp;
// docs/tensormap-decode.md). Exit status: 0 decoded, 1 bad input or bytes no encode writes, 2 usage.
#include "cli/commands.hpp"
#include "layoutscope/core/file_read.hpp"
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iostream>
#include <iterator>
#include <ostream>
#include <string>

namespace layoutscope::cli {
namespace {

const std::string kUsage = usageOf("tensormap"); // usage.cpp

// Text is small: a map is 128 bytes, its gdb dump about 1 KiB. Refuse anything past 1 MiB.
constexpr std::streamsize kMaxInput = std::streamsize(1) << 20;

bool readAll(std::istream& in, std::string& out) {
    out.resize(size_t(kMaxInput) + 1);
    in.read(out.data(), kMaxInput + 1);
    out.resize(size_t(in.gcount()));
    return out.size() <= size_t(kMaxInput);
}

bool looksLikeText(const std::string& data) {
    for (unsigned char c : data)
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return false;
    return !data.empty();
}

int report(std::ostream& err, const std::vector<Diagnostic>& ds, const std::string& where) {
    printDiagnostics(err, ds, where);
    return 1;
}

int decode(const Args& args, std::ostream& out, std::ostream& err) {
    bool json = false;
    std::string name = "T", file, text;
    bool haveText = false;
    for (size_t i = 2; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json")
            json = true;
        else if ((a == "--name" || a == "--file") && i + 1 < args.size())
            (a == "--name" ? name : file) = args[++i];
        else if (a.rfind("--", 0) == 0) {
            err << "tensormap decode: unknown option '" << a << "'"
                << (a == "--name" || a == "--file" ? " (missing value)" : "") << "\n"
                << kUsage;
            return 2;
        } else {
            text += (haveText ? " " : "") + a;
            haveText = true;
        }
    }
    // The name goes into a `tensormap NAME ...` line: a scenario name, never text that adds lines.
    const bool nameOk =
        !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
        std::all_of(name.begin(), name.end(),
                    [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!nameOk || name.size() > 256) {
        std::string shown = name.substr(0, 64) + (name.size() > 64 ? "..." : "");
        for (char& c : shown)
            if (!std::isprint(static_cast<unsigned char>(c))) c = '?'; // no line of its own on stderr either
        err << "tensormap decode: --name takes a scenario name (letters, digits, '_'; at most 256), not '"
            << shown << "'\n"
            << kUsage;
        return 2;
    }
    if (haveText && !file.empty()) {
        err << "tensormap decode: give the bytes as arguments or --file, not both\n" << kUsage;
        return 2;
    }
    Result<TensorMapImage> image = TensorMapImage{};
    std::string where = "<args>";
    if (!file.empty()) {
        where = file;
        auto read = readInputFile(file, std::uint64_t(kMaxInput), "the tensor-map file");
        if (!read) return report(err, read.diagnostics(), file);
        const std::string& data = *read;
        // Text (hex, gdb output) or the raw object (cudaMemcpy'd, or gdb `dump binary memory`): a raw
        // map always has zero bytes (bytes [76,128) at least), text never does.
        image = looksLikeText(data) ? parseTensorMapText(data) : tensorMapFromBinary(data);
    } else if (haveText) {
        image = parseTensorMapText(text);
    } else {
        where = "<stdin>";
        if (!readAll(std::cin, text)) {
            err << "<stdin>: error: more than 1 MiB; a CUtensorMap is 128 bytes (256 hex digits as text) "
                   "[io]\n";
            return 1;
        }
        image = parseTensorMapText(text);
    }
    if (!image) return report(err, image.diagnostics(), where);
    const auto decoded = decodeTensorMap(*image);
    if (!decoded) return report(err, decoded.diagnostics(), where);
    if (json)
        out << tensorMapJson(*decoded) << "\n";
    else
        out << tensorMapDirective(*decoded, name);
    return 0;
}

} // namespace

int cmdTensormap(const Args& args, std::ostream& out, std::ostream& err) {
    if (args.size() >= 2 && args[1] == "decode") return decode(args, out, err);
    err << kUsage;
    return 2;
}

} // namespace layoutscope::cli
