// layoutscope-cli desc encode KEY=VALUE... / desc decode VALUE: the tcgen05 shared-memory matrix descriptor
// (PTX ISA 9.2 §9.7.16.4.1 Table 40; tcgen05.md §7) through the engine's encodeSmemDescriptor /
// decodeSmemDescriptor / validateSmemDescriptor. Exit status: 0 ok, 1 invalid field (a diagnostic naming
// its rule), 2 usage error.
#include "cli/commands.hpp"
#include "layoutscope/tcgen05/smem_descriptor.hpp"
#include "layoutscope/tcgen05/tmem.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace layoutscope::cli {
namespace {

const std::string kUsage = usageOf("desc"); // usage.cpp

std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

// "0x400", "1024": the whole text must be a non-negative number.
std::optional<uint64_t> parseNumber(const std::string& t) {
    if (t.empty() || t[0] == '-' || t[0] == '+') return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const unsigned long long v = std::strtoull(t.c_str(), &end, 0);
    if (errno != 0 || end != t.c_str() + t.size()) return std::nullopt;
    return v;
}

// The name of the rule a diagnostic cites (found by its reference), for "rule '...'" in messages.
std::string ruleNameOf(const Diagnostic& d) {
    for (uint16_t i = 1; i < static_cast<uint16_t>(RuleId::kCount); ++i) {
        const RuleInfo& r = ruleInfo(static_cast<RuleId>(i));
        if (d.ruleRef == r.reference) return r.name;
    }
    return "?";
}

int fail(std::ostream& err, const Diagnostic& d) {
    err << "desc: rule '" << ruleNameOf(d) << "': " << formatDiagnostic(d, "") << "\n";
    return kExitDiagnostics;
}

Diagnostic fieldError(std::string message) {
    return tcgen05Diagnostic(Severity::Error, RuleId::SmemDescriptorFields, std::move(message));
}

// One line per field: value, then its bit range as the code comments it (smem_descriptor.hpp).
void printFields(std::ostream& out, uint64_t v) {
    const SmemDescriptor d = decodeSmemDescriptor(v);
    char buf[160];
    auto line = [&](const char* name, uint64_t field, const char* bits, const std::string& meaning) {
        std::snprintf(buf, sizeof buf, "  %-14s = %-8s // %-14s %s\n", name, hex(field).c_str(), bits,
                      meaning.c_str());
        out << buf;
    };
    const CuteSwizzle sw = swizzleOfLayoutType(d.layoutType);
    out << "descriptor " << hex(v) << "\n";
    line("start address", d.startAddress >> 4, "bits [0,14)",
         std::to_string(d.startAddress) + " B (" + hex(d.startAddress) + "), field = addr >> 4");
    line("lbo", d.lbo >> 4, "bits [16,30)",
         std::to_string(d.lbo) + " B" + (d.lboMode ? " (absolute address of the 2nd chunk)" : " (relative)"));
    line("sbo", d.sbo >> 4, "bits [32,46)", std::to_string(d.sbo) + " B");
    line("version", d.version, "bits [46,49)", "fixed constant 0b001");
    line("base offset", d.baseOffset, "bits [49,52)", "matrix base offset (pattern start >> 7) & 7");
    line("lbo mode", d.lboMode, "bit 52", d.lboMode ? "absolute (sm_103a)" : "relative");
    const std::string type = smemLayoutTypeName(d.layoutType);
    line("layout type", d.layoutType, "bits [61,64)",
         type == "invalid" ? "invalid (3, 5 and 7 are not layout types)"
                           : type + ", Swizzle<" + std::to_string(sw.b) + "," + std::to_string(sw.m) + "," +
                                 std::to_string(sw.s) + ">");
    line("reserved", d.reservedBits, "bits [14,16) [30,32) [53,61)", "must be 0");
}

// Checks the fields and prints them; 0 when valid, else 1 after every diagnostic.
int printValidated(std::ostream& out, std::ostream& err, uint64_t v) {
    printFields(out, v);
    const Status st = validateSmemDescriptor(decodeSmemDescriptor(v));
    if (st) return 0;
    for (const Diagnostic& d : st.diagnostics()) fail(err, d);
    return kExitDiagnostics;
}

int encode(const Args& args, std::ostream& out, std::ostream& err) {
    std::map<std::string, std::string> kv;
    for (size_t i = 2; i < args.size(); ++i) {
        const size_t eq = args[i].find('=');
        if (eq == std::string::npos || eq == 0) {
            err << "desc encode: expected KEY=VALUE, got '" << args[i] << "'\n" << kUsage;
            return 2;
        }
        if (!kv.emplace(args[i].substr(0, eq), args[i].substr(eq + 1)).second) {
            err << "desc encode: " << args[i].substr(0, eq) << "= given twice ('" << kv[args[i].substr(0, eq)]
                << "' and '" << args[i].substr(eq + 1) << "'); give each field once\n"
                << kUsage;
            return 2;
        }
    }
    for (const auto& [k, v] : kv)
        if (k != "start" && k != "lbo" && k != "sbo" && k != "swizzle" && k != "base" && k != "lbo_mode" &&
            k != "version") {
            err << "desc encode: unknown key '" << k << "'\n" << kUsage;
            return 2;
        }
    for (const char* k : {"start", "lbo", "sbo", "swizzle"})
        if (!kv.count(k)) {
            err << "desc encode: missing " << k << "=\n" << kUsage;
            return 2;
        }
    SmemDescriptor d;
    // Byte fields: 16-B aligned values of an 18-bit shared address space, stored >> 4 in 14 bits.
    for (auto [key, field] : {std::pair{"start", &d.startAddress}, {"lbo", &d.lbo}, {"sbo", &d.sbo}}) {
        const auto n = parseNumber(kv[key]);
        if (!n || *n % 16 != 0 || *n >= (uint64_t{1} << 18))
            return fail(
                err, fieldError(std::string(key) + "=" + kv[key] +
                                " must be a multiple of 16 below 0x40000 (stored as bytes >> 4 in 14 bits)"));
        *field = static_cast<uint32_t>(*n);
    }
    const auto type = smemLayoutTypeFromName(kv["swizzle"]);
    if (!type) return fail(err, fieldError("swizzle=" + kv["swizzle"] + " is not " + kSmemLayoutTypeNames));
    d.layoutType = static_cast<uint32_t>(*type);
    if (kv.count("base")) {
        const auto n = parseNumber(kv["base"]);
        if (!n || *n > 7)
            return fail(err, fieldError("base=" + kv["base"] + " must be 0..7 (3 bits, [49,52))"));
        d.baseOffset = static_cast<uint32_t>(*n);
    }
    if (kv.count("lbo_mode")) {
        const std::string& m = kv["lbo_mode"];
        if (m != "relative" && m != "absolute" && m != "0" && m != "1")
            return fail(err, fieldError("lbo_mode=" + m + " must be relative (0) or absolute (1)"));
        d.lboMode = m == "absolute" || m == "1" ? 1 : 0;
    }
    if (kv.count("version")) {
        const auto n = parseNumber(kv["version"]);
        if (!n || *n > 7)
            return fail(err, fieldError("version=" + kv["version"] + " must fit in 3 bits [46,49)"));
        d.version = static_cast<uint32_t>(*n);
    }
    if (Status st = validateSmemDescriptor(d); !st) {
        for (const Diagnostic& e : st.diagnostics()) fail(err, e);
        return kExitDiagnostics;
    }
    const uint64_t v = encodeSmemDescriptor(d);
    LAYOUTSCOPE_ASSERT(decodeSmemDescriptor(v) == d);
    return printValidated(out, err, v);
}

} // namespace

int cmdDesc(const Args& args, std::ostream& out, std::ostream& err) {
    if (args.size() >= 2 && args[1] == "encode") return encode(args, out, err);
    if (args.size() == 3 && args[1] == "decode") {
        const auto v = parseNumber(args[2]);
        if (!v) {
            err << "desc decode: '" << args[2] << "' is not a 64-bit number (e.g. 0x4000404000010040)\n";
            return 2;
        }
        return printValidated(out, err, *v);
    }
    err << kUsage;
    return 2;
}

} // namespace layoutscope::cli
