// By-value struct and CUtensorMap kernel parameters (issue 22 item 2; docs/exec.md): `fields:` lists,
// `tensormap:` descriptions (the scenario `tensormap` directive, parsed and encoded by the scenario
// reader and encodeTiled/encodeIm2col: nothing re-derived here) or hex blobs (`tensormap decode`'s
// formats), and the read-back of a map from the bytes a TMA operand points at (decodeTensorMap).
#include "exec/args_struct.hpp"
#include "exec/decode.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tensor_map_decode.hpp"

#include <cstring>
#include <sstream>

namespace layoutscope::exec {

namespace {

constexpr const char* kStructRef = "docs/exec.md (struct and tensor-map parameters)";

Diagnostic structError(const std::string& msg, DiagCode code = DiagCode::InvalidValue) {
    return Diagnostic{Severity::Error, code, {}, msg, kStructRef, Provenance::Assumption};
}

struct FieldType {
    const char* name;
    Ty t;
    uint32_t bytes;
};
constexpr FieldType kFieldTypes[] = {
    {"u8", {TK::U, 8}, 1},       {"u16", {TK::U, 16}, 2},        {"u32", {TK::U, 32}, 4},
    {"u64", {TK::U, 64}, 8},     {"s8", {TK::S, 8}, 1},          {"s16", {TK::S, 16}, 2},
    {"s32", {TK::S, 32}, 4},     {"s64", {TK::S, 64}, 8},        {"f16", {TK::F16, 16}, 2},
    {"bf16", {TK::BF16, 16}, 2}, {"f32", {TK::F, 32}, 4},        {"f64", {TK::F, 64}, 8},
    {"ptr", {TK::U, 64}, 8},     {"tensormap", {TK::B, 8}, 128},
};

bool parseOffset(std::string_view s, uint64_t& v) {
    if (s.empty() || s.size() > 18) return false;
    const std::string t(s);
    char* end = nullptr;
    if (t[0] == '-' || t[0] == '+') return false;
    v = std::strtoull(t.c_str(), &end, 0);
    return end && !*end;
}

// An integer or float literal as `t`'s bits; false if it is no literal of that type or does not fit.
bool scalarBits(const std::string& v, Ty t, uint64_t& out) {
    char* end = nullptr;
    if (v.empty()) return false;
    if (t.isFloat()) {
        const double d = std::strtod(v.c_str(), &end);
        if (*end) return false;
        if (t.k == TK::F && t.bits == 64)
            std::memcpy(&out, &d, 8);
        else
            out = fromLongDouble(d, t, Rnd::Rn, false);
        return true;
    }
    if (v[0] == '-') {
        if (t.k != TK::S) return false;
        const long long x = std::strtoll(v.c_str(), &end, 0);
        if (*end || (t.bits < 64 && x < -(1ll << (t.bits - 1)))) return false;
        out = maskBits(uint64_t(x), t.bits);
        return true;
    }
    const unsigned long long x = std::strtoull(v.c_str(), &end, 0);
    if (*end) return false;
    if (t.bits < 64 && x >= (1ull << (t.k == TK::S ? t.bits - 1 : t.bits)) &&
        !(t.k == TK::S && x < (1ull << t.bits) && v.rfind("0x", 0) == 0))
        return false;
    out = x;
    return true;
}

std::string knownTensors(const std::vector<ExecTensor>& tensors) {
    std::string s;
    for (const auto& t : tensors) s += (s.empty() ? "" : ", ") + t.name;
    return s.empty() ? "none: declare one with --tensor NAME=tensor:... or pass one as an --arg" : s;
}

} // namespace

Result<uint64_t> tensorAddress(std::string_view ref, const std::vector<ExecTensor>& tensors) {
    const size_t plus = ref.find('+');
    const std::string name(ref.substr(0, plus));
    uint64_t extra = 0;
    if (plus != std::string_view::npos && !parseOffset(ref.substr(plus + 1), extra))
        return structError("`" + std::string(ref) + "`: write TENSOR or TENSOR+BYTES");
    for (const auto& t : tensors)
        if (t.name == name) {
            if (extra > t.bytes.size())
                return structError("`" + std::string(ref) + "` points " +
                                   std::to_string(extra - t.bytes.size()) +
                                   " bytes past the end of tensor `" + name + "` (" +
                                   std::to_string(t.bytes.size()) + " bytes)");
            return t.address + extra;
        }
    return structError("`" + name + "` names no tensor (tensors: " + knownTensors(tensors) + ")",
                       DiagCode::UnknownName);
}

Result<std::array<uint8_t, 128>>
buildTensorMap(std::string_view descIn, const std::vector<ExecTensor>& tensors, const std::string& sm) {
    std::string desc = trim(descIn);
    if (desc.size() >= 2 && desc.front() == '{' && desc.back() == '}')
        desc = trim(desc.substr(1, desc.size() - 2));
    const bool directive = desc.rfind("tiled", 0) == 0 || desc.rfind("im2col", 0) == 0;
    if (!directive) { // a hex blob, optionally @TENSOR[+BYTES]
        const size_t at = desc.find('@');
        auto image = parseTensorMapText(desc.substr(0, at));
        if (!image) return image.diagnostics();
        auto d = decodeTensorMap(*image);
        if (!d) return d.diagnostics();
        if (at == std::string::npos) return *image;
        auto addr = tensorAddress(trim(desc.substr(at + 1)), tensors);
        if (!addr) return addr.diagnostics();
        auto moved =
            replaceAddress(d->map, *addr, sm.rfind("sm_90", 0) == 0 ? TmaArch::Sm90 : TmaArch::Sm100);
        if (!moved) return moved.diagnostics();
        return tensorMapBytes(*moved);
    }
    // The directive's options; address=TENSOR[+BYTES] becomes the tensor's address.
    std::istringstream in(desc);
    std::string tok, text;
    const ExecTensor* target = nullptr;
    uint64_t address = 0;
    while (in >> tok) {
        for (const char* key : {"address=", "globalAddress="})
            if (tok.rfind(key, 0) == 0 && tok.size() > std::strlen(key) &&
                !std::isdigit(static_cast<unsigned char>(tok[std::strlen(key)]))) {
                const std::string ref = tok.substr(std::strlen(key));
                auto a = tensorAddress(ref, tensors);
                if (!a) return a.diagnostics();
                address = *a;
                for (const auto& t : tensors)
                    if (t.name == ref.substr(0, ref.find('+'))) target = &t;
                char buf[32];
                std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(*a));
                tok = std::string(key) + buf;
            }
        if (tok.find('\n') != std::string::npos) return structError("a tensor-map description is one line");
        text += " " + tok;
    }
    if (!target)
        return structError("tensor-map description `" + desc +
                           "` needs address=TENSOR[+BYTES] naming the tensor it maps (tensors: " +
                           knownTensors(tensors) + ")");
    // The scenario reader wants one instruction; a fence moves nothing.
    auto scn = parseScenario("target " + sm + "\ntensormap T" + text + "\nfence.proxy.async.shared::cta;\n");
    if (!scn) {
        std::vector<Diagnostic> ds = scn.diagnostics();
        for (auto& d : ds) {
            d.message = "tensor map `" + desc + "`: " + d.message;
            d.span = {};
        }
        return ds;
    }
    if (scn->tensorMaps.size() != 1) return structError("tensor-map description `" + desc + "` made no map");
    const ScenarioTensorMap& tm = scn->tensorMaps.front();
    if (address - target->address + tm.extent > target->bytes.size())
        return structError("tensor map `" + desc + "` spans " + std::to_string(tm.extent) + " bytes from " +
                           std::to_string(address - target->address) + " bytes into tensor `" + target->name +
                           "`, which has " + std::to_string(target->bytes.size()) +
                           " (dims and strides must lie inside the tensor)");
    return tensorMapBytes(tm.map);
}

Status bindStruct(const PtxParam& prm, const ExecArg& a, const std::vector<ExecTensor>& tensors,
                  const std::string& sm, uint8_t* dst) {
    const std::string where =
        "argument `" + a.key + "` (parameter `" + prm.name + "`, " + std::to_string(prm.bytes) + " bytes)";
    std::string spec = a.structSpec;
    std::vector<std::string> fields;
    if (spec.rfind("tensormap:", 0) == 0)
        fields.push_back("0=tensormap:{" + spec.substr(10) + "}");
    else
        fields = splitOperands(std::string_view(spec).substr(7));
    struct Placed {
        uint64_t off, bytes;
    };
    std::vector<Placed> placed;
    for (const auto& f : fields) {
        const size_t eq = f.find('='), colon = f.find(':', eq == std::string::npos ? 0 : eq);
        uint64_t off = 0;
        if (eq == std::string::npos || colon == std::string::npos || !parseOffset(trim(f.substr(0, eq)), off))
            return structError(where + ": field `" + f + "` is not OFF=TYPE:VALUE", DiagCode::Syntax);
        const std::string type = trim(f.substr(eq + 1, colon - eq - 1)), value = trim(f.substr(colon + 1));
        const FieldType* ft = nullptr;
        for (const auto& k : kFieldTypes)
            if (type == k.name) ft = &k;
        if (!ft)
            return structError(where + ": field `" + f +
                                   "`: unknown type (u8..u64 s8..s64 f16 bf16 f32 f64 ptr tensormap)",
                               DiagCode::Syntax);
        const uint64_t bytes = ft->bytes;
        const uint64_t align = type == "tensormap" ? 64 : bytes;
        if (off % align)
            return structError(where + ": field `" + f + "` at offset " + std::to_string(off) + " is a " +
                               std::to_string(bytes) + "-byte " + type +
                               "; its offset must be a multiple of " + std::to_string(align) +
                               (type == "tensormap"
                                    ? " (a CUtensorMap is 64-byte aligned)"
                                    : " (natural alignment, as the C++ struct layout puts it)"));
        if (off >= prm.bytes || bytes > prm.bytes - off)
            return structError(where + ": field `" + f + "` (" + std::to_string(bytes) + " bytes at offset " +
                               std::to_string(off) + ") lies outside the parameter's " +
                               std::to_string(prm.bytes) + " bytes");
        for (const Placed& p : placed)
            if (off < p.off + p.bytes && p.off < off + bytes)
                return structError(where + ": field `" + f + "` (bytes [" + std::to_string(off) + "," +
                                   std::to_string(off + bytes) + ")) overlaps the field at bytes [" +
                                   std::to_string(p.off) + "," + std::to_string(p.off + p.bytes) + ")");
        placed.push_back({off, bytes});
        if (type == "tensormap") {
            auto image = buildTensorMap(value, tensors, sm);
            if (!image) {
                std::vector<Diagnostic> ds = image.diagnostics();
                for (auto& d : ds) d.message = where + ": " + d.message;
                return ds;
            }
            std::memcpy(dst + off, image->data(), 128);
            continue;
        }
        uint64_t bits = 0;
        if (type == "ptr") {
            auto addr = tensorAddress(value, tensors);
            if (!addr) {
                std::vector<Diagnostic> ds = addr.diagnostics();
                for (auto& d : ds) d.message = where + ": field `" + f + "`: " + d.message;
                return ds;
            }
            bits = *addr;
        } else if (!scalarBits(value, ft->t, bits)) {
            return structError(where + ": field `" + f + "`: `" + value + "` is not a " + type + " value" +
                               (ft->t.isFloat() ? "" : " (an integer that fits the type)"));
        }
        std::memcpy(dst + off, &bits, bytes);
    }
    return okStatus();
}

const TensorMap* tensorMapAt(Machine& m, Warp& w, const Op& op, Space space, uint64_t addr, int lane) {
    if (addr % 64) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(addr));
        m.fail(op, DiagCode::FaultMisalignedAddress,
               std::string("the tensor-map operand ") + buf + " of " + m.who(w, lane) +
                   " is not 64-byte aligned (PTX ISA 9.2 §9.7.9.25.5: a CUtensorMap is 64-byte aligned)");
        return nullptr;
    }
    const uint8_t* p = resolve(m, w, op, space, addr, 128, lane, false);
    if (!p) return nullptr;
    std::array<uint8_t, 128> image{};
    std::memcpy(image.data(), p, 128);
    if (auto it = m.tensorMapCache.find(image); it != m.tensorMapCache.end()) return &it->second;
    auto d = decodeTensorMap(image);
    if (!d) {
        m.fail(op, DiagCode::InvalidValue,
               "the 128 bytes at the tensor-map operand are no CUtensorMap an encode writes: " +
                   d.error().message + " (pass it with --arg KEY=tensormap:...)");
        return nullptr;
    }
    return &m.tensorMapCache.emplace(image, d->map).first->second;
}

} // namespace layoutscope::exec
