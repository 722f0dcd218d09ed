// layoutscope-cli tensormap decode [--json] [--name NAME] (HEX... | --file F | < F): a 128-byte
// CUtensorMap (hex string, cuda-gdb x/16xg or x/32xw text, or a raw .bin) -> the scenario `tensormap`
// directive that encodes it, or a golden/tma-style JSON object (engine: tensor_map_decode.hpp;
// docs/tensormap-decode.md). Exit status: 0 decoded, 1 bad input or bytes no encode writes, 2 usage.
#include "cli/commands.hpp"
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <fstream>
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
    for (const Diagnostic& d : ds) err << formatDiagnostic(d, where) << "\n";
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
    if (haveText && !file.empty()) {
        err << "tensormap decode: give the bytes as arguments or --file, not both\n" << kUsage;
        return 2;
    }
    Result<TensorMapImage> image = TensorMapImage{};
    std::string where = "<args>";
    if (!file.empty()) {
        where = file;
        std::ifstream in(file, std::ios::binary);
        std::string data;
        if (!in) {
            err << file << ": error: cannot open the file [io]\n";
            return 1;
        }
        if (!readAll(in, data)) {
            err << file
                << ": error: more than 1 MiB; a CUtensorMap is 128 bytes (256 hex digits as text) [io]\n";
            return 1;
        }
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
