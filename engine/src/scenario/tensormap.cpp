// tensormap NAME tiled TYPE dims=[..] [strides=[..]] box=[..] [elementStrides=[..]] [interleave=..]
//           [swizzle=..] [l2=..] [oob=zero|nan] [address=0x..] [mapAddress=0x..] [fill=..]
// Values and names follow cuda.h cuTensorMapEncodeTiled (../shared/ref/tma.md §2); encoding is
// delegated to encodeTiled() and its diagnostics are placed on the option they name.
#include "ptx/lex.hpp"
#include "scenario/directives.hpp"
#include "scenario/im2col.hpp"
#include "scenario/tma_extra.hpp"

#include <algorithm>
#include <limits>

namespace layoutscope::scn {

uint32_t fillElementBytes(TensorDataType t) {
    const uint32_t bits = elementBits(t);
    return bits >= 8 ? bits / 8 : 1;
}

std::optional<uint64_t> tensorExtent(const TensorMapTiledParams& p) {
    // one past the last element: dims[0]*bits/8 + sum_{i>=1} (dims[i]-1) * strides[i-1]
    const uint32_t bits = elementBits(p.dataType) ? elementBits(p.dataType) : 8;
    const uint64_t max = std::numeric_limits<uint64_t>::max();
    if (p.globalDim[0] > max / bits) return std::nullopt;
    uint64_t extent = (p.globalDim[0] * bits + 7) / 8;
    for (uint32_t i = 1; i < p.tensorRank && i < kMaxTensorRank; ++i) {
        if (p.globalDim[i] == 0) return extent;
        const uint64_t n = p.globalDim[i] - 1, st = p.globalStrides[i - 1];
        if (st != 0 && n > max / st) return std::nullopt;
        if (extent > max - n * st) return std::nullopt;
        extent += n * st;
    }
    return extent;
}

namespace {

// roles=[r0,r1,..]: one MMA role per dimension, dimension 0 first: m, n or k (exactly one k, at most one of
// each), b for any other dimension. The consumer check reads an operand's major-ness from it.
bool parseRoles(Context& ctx, const Option& o, uint32_t rank, std::string& out) {
    const char* rule = "roles=[..] names each dimension's MMA role, dimension 0 first: m, n or k (one k), "
                       "b for others";
    if (!o.isList || o.list.size() != rank) {
        ctx.error(DiagCode::InvalidValue, o.span,
                  "roles must list one role per dimension (" + std::to_string(rank) + " here): " + rule);
        return false;
    }
    out.clear();
    for (const Tok* e : o.list) {
        const std::string& v = e->text;
        if (v.size() != 1 || std::string_view("mnkb").find(v[0]) == std::string_view::npos ||
            (v[0] != 'b' && out.find(v[0]) != std::string::npos)) {
            ctx.error(
                DiagCode::InvalidValue, e->span,
                "role '" + quoted(v) + "' " +
                    (v.size() == 1 && out.find(v[0]) != std::string::npos ? "given twice; " : "unknown; ") +
                    rule);
            return false;
        }
        out += v[0];
    }
    if (out.find('k') == std::string::npos) {
        ctx.error(DiagCode::InvalidValue, o.span, std::string("roles name no k dimension; ") + rule);
        return false;
    }
    return true;
}

struct Lists {
    const Option* dims = nullptr;
    const Option* strides = nullptr;
    const Option* box = nullptr;
    const Option* elementStrides = nullptr;
};

// Place an encode diagnostic on the option it talks about.
SourceSpan spanForEncodeDiag(const Diagnostic& d, const std::vector<Option>& opts, SourceSpan typeSpan,
                             SourceSpan fallback) {
    const std::string text = d.message + " " + d.ruleRef;
    struct Key {
        const char* needle;
        const char* a;
        const char* b;
    };
    static constexpr Key kKeys[] = {
        {"elementStrides", "elementStrides", "elementStrides"},
        {"boxDim", "box", "boxDim"},
        {"globalStrides", "strides", "globalStrides"},
        {"globalDim", "dims", "globalDim"},
        {"globalAddress", "address", "globalAddress"},
        {"interleave", "interleave", "interleave"},
        {"swizzle", "swizzle", "swizzle"},
        {"l2Promotion", "l2", "l2Promotion"},
        {"oobFill", "oob", "oobFill"},
        {"tensorMap", "mapAddress", "mapAddress"},
        {"tensorRank", "dims", "globalDim"},
    };
    for (const Key& k : kKeys) {
        if (text.find(k.needle) == std::string::npos) continue;
        for (const Option& o : opts)
            if (o.key->text == k.a || o.key->text == k.b) return o.span;
    }
    if (text.find("dataType") != std::string::npos || text.find("DATA_TYPE") != std::string::npos)
        return typeSpan;
    return fallback;
}

} // namespace

void tensormap(DirectiveReader& r) {
    Context& ctx = r.ctx;
    ScenarioTensorMap t;
    if (!r.name(t.name, "a tensor map name")) return;
    t.span = r.toks[1].span;
    const Tok* mode = r.next();
    if (mode && (mode->text == "im2col" || mode->text == "im2col_wide"))
        return im2colTensormap(r, std::move(t), *mode); // scenario_im2col.cpp
    if (!mode || mode->text != "tiled") {
        ctx.error(DiagCode::Syntax, mode ? mode->span : r.endSpan(),
                  "expected 'tiled', 'im2col' or 'im2col_wide' after 'tensormap " + t.name + "'");
        return;
    }
    const Tok* type = r.next();
    if (!type || type->kind != Tok::Word) {
        ctx.error(DiagCode::Syntax, type ? type->span : r.endSpan(),
                  "expected a data type such as FLOAT16 after 'tiled'");
        return;
    }
    TensorMapTiledParams p;
    if (auto dt = parseDataType(type->text)) {
        p.dataType = *dt;
    } else {
        ctx.error(
            DiagCode::InvalidValue, type->span,
            "unknown data type '" + quoted(type->text) +
                "' (cuda.h CUtensorMapDataType names: UINT8, UINT16, UINT32, INT32, UINT64, INT64, FLOAT16, "
                "FLOAT32, FLOAT64, BFLOAT16, FLOAT32_FTZ, TFLOAT32, TFLOAT32_FTZ, 16U4_ALIGN8B, "
                "16U4_ALIGN16B, "
                "16U6_ALIGN16B)",
            "cuda.h CUtensorMapDataType", Provenance::CudaHeader);
        return;
    }
    std::vector<Option> opts;
    if (!r.options(opts)) return;
    Lists l;
    const Option* swizzle96 = nullptr; // swizzle=96B: PTX .swizzle_mode 4, set after a SWIZZLE_NONE encode
    bool explicitAddress = false;
    const Option* rolesOpt = nullptr; // roles=[k,n]: checked once the rank is known
    const int64_t kMaxI = std::numeric_limits<int64_t>::max();
    for (const Option& o : opts) {
        const std::string& k = o.key->text;
        auto enumValue = [&](auto parse, const char* known) -> decltype(parse(std::string_view{})) {
            auto v = o.value ? parse(o.value->text) : std::nullopt;
            if (!v)
                ctx.error(DiagCode::InvalidValue, o.value ? o.value->span : o.span,
                          "unknown " + k + " '" + (o.value ? quoted(o.value->text) : std::string("[...]")) +
                              "' (" + known + ")",
                          "cuda.h CUtensorMap enums", Provenance::CudaHeader);
            return v;
        };
        if (k == "dims" || k == "globalDim")
            l.dims = &o;
        else if (k == "strides" || k == "globalStrides")
            l.strides = &o;
        else if (k == "box" || k == "boxDim")
            l.box = &o;
        else if (k == "elementStrides")
            l.elementStrides = &o;
        else if (k == "swizzle" && o.value && o.value->text == "96B")
            swizzle96 = &o; // PTX-level, below
        else if (k == "interleave") {
            auto v = enumValue(parseInterleave, "NONE, 16B, 32B");
            if (!v) return;
            p.interleave = *v;
        } else if (k == "swizzle") {
            auto v = enumValue(parseSwizzle,
                               "NONE, 32B, 64B, 128B, 128B_ATOM_32B, 128B_ATOM_32B_FLIP_8B, 128B_ATOM_64B; "
                               "96B (PTX only, sm_103a/f)");
            if (!v) return;
            p.swizzle = *v;
        } else if (k == "l2" || k == "l2Promotion") {
            auto v = enumValue(parseL2Promotion, "NONE, L2_64B, L2_128B, L2_256B");
            if (!v) return;
            p.l2Promotion = *v;
        } else if (k == "oob" || k == "oobFill") {
            if (o.value && o.value->text == "zero")
                p.oobFill = TensorOobFill::NONE;
            else if (o.value && o.value->text == "nan")
                p.oobFill = TensorOobFill::NAN_REQUEST_ZERO_FMA;
            else {
                auto v = enumValue(parseOobFill, "zero, nan, NONE, NAN_REQUEST_ZERO_FMA");
                if (!v) return;
                p.oobFill = *v;
            }
        } else if (k == "address" || k == "globalAddress" || k == "mapAddress") {
            if (!o.value) {
                ctx.error(DiagCode::Syntax, o.span, k + "= takes one address");
                return;
            }
            auto v = r.integer(*o.value, "address", 0, kMaxI);
            if (!v) return;
            if (k == "mapAddress")
                p.tensorMapAddress = static_cast<uint64_t>(*v);
            else
                p.globalAddress = static_cast<uint64_t>(*v), explicitAddress = true;
        } else if (k == "fill") {
            auto f = parseFill(ctx, o);
            if (!f) return;
            t.fill = *f;
        } else if (k == "roles") {
            rolesOpt = &o;
        } else {
            ctx.error(DiagCode::InvalidValue, o.key->span,
                      "unknown option '" + quoted(k) +
                          "' for tensormap (dims, strides, box, elementStrides, interleave, swizzle, l2, "
                          "oob, address, "
                          "mapAddress, fill, roles)");
            return;
        }
    }
    if (!l.dims || !l.box) {
        ctx.error(DiagCode::Syntax, r.endSpan(),
                  std::string("tensormap ") + t.name + " needs " + (!l.dims ? "dims=[...]" : "box=[...]") +
                      " (dimension 0, the contiguous one, first)");
        return;
    }
    if (!l.dims->isList || l.dims->list.empty() || l.dims->list.size() > kMaxTensorRank) {
        ctx.error(DiagCode::InvalidValue, l.dims->span,
                  "dims must list 1 to 5 extents (the tensor rank), dimension 0 first",
                  "cuda.h cuTensorMapEncodeTiled: "
                  "tensorRank 1..5",
                  Provenance::CudaHeader);
        return;
    }
    const size_t rank = l.dims->list.size();
    p.tensorRank = static_cast<uint32_t>(rank);
    auto sizeMismatch = [&](const Option& o, size_t want) {
        if (o.isList && o.list.size() == want) return false;
        ctx.error(DiagCode::InvalidValue, o.span,
                  o.key->text + " must have " + std::to_string(want) + (want == 1 ? " entry" : " entries") +
                      " for a rank-" + std::to_string(rank) + " tensor" +
                      (o.key->text.find("trides") != std::string::npos && o.key->text != "elementStrides"
                           ? " (byte strides of dimensions 1.." + std::to_string(rank - 1) + ")"
                           : std::string()),
                  "cuda.h cuTensorMapEncodeTiled", Provenance::CudaHeader);
        return true;
    };
    for (const Tok* d : l.dims->list) // the extents first: 'dims=[64;64]' is a bad extent, not rank 1
        if (!r.integer(*d, "globalDim", 0, kMaxI)) return;
    if (sizeMismatch(*l.box, rank) || (l.strides && sizeMismatch(*l.strides, rank - 1)) ||
        (l.elementStrides && sizeMismatch(*l.elementStrides, rank)))
        return;
    for (size_t k = 0; k < rank; ++k) {
        auto d = r.integer(*l.dims->list[k], "globalDim", 0, kMaxI);
        auto b = r.integer(*l.box->list[k], "boxDim", 0, 0xFFFFFFFF);
        if (!d || !b) return;
        p.globalDim[k] = static_cast<uint64_t>(*d);
        p.boxDim[k] = static_cast<uint32_t>(*b);
        if (l.elementStrides) {
            auto e = r.integer(*l.elementStrides->list[k], "elementStrides", 0, 0xFFFFFFFF);
            if (!e) return;
            p.elementStrides[k] = static_cast<uint32_t>(*e);
        }
    }
    if (l.strides) {
        for (size_t k = 0; k + 1 < rank; ++k) {
            auto s = r.integer(*l.strides->list[k], "globalStrides", 0, kMaxI);
            if (!s) return;
            p.globalStrides[k] = static_cast<uint64_t>(*s);
        }
    } else {
        // Default: dense (packed) strides, stride[i] = stride[i-1] * dims[i] (dims[0]*bits/8 first).
        const uint32_t bits = elementBits(p.dataType) ? elementBits(p.dataType) : 8;
        uint64_t s = (p.globalDim[0] * bits + 7) / 8;
        for (size_t k = 0; k + 1 < rank; ++k) {
            p.globalStrides[k] = s;
            if (p.globalDim[k + 1] && s > std::numeric_limits<uint64_t>::max() / p.globalDim[k + 1]) break;
            s *= p.globalDim[k + 1];
        }
    }
    const auto extent = tensorExtent(p);
    if (!extent) {
        ctx.error(DiagCode::InvalidValue, l.dims->span, "the tensor's byte extent does not fit in 64 bits");
        return;
    }
    t.extent = *extent;
    if (!explicitAddress) p.globalAddress = ctx.nextGlobal;
    if (p.globalAddress > std::numeric_limits<uint64_t>::max() - t.extent) {
        ctx.error(DiagCode::InvalidValue, r.toks[1].span,
                  "the tensor runs past the end of the 64-bit address space");
        return;
    }
    if (const ScenarioTensorMap* other = ctx.overlappingTensor(p.globalAddress, t.extent)) {
        ctx.error(DiagCode::InvalidValue, r.toks[1].span,
                  "tensor " + t.name + " overlaps tensor " + other->name + " (line " +
                      std::to_string(other->span.line) + ") in global memory; give it another address=");
        return;
    }
    if (swizzle96 && !allow96BSwizzle(ctx, swizzle96->span, p.dataType, p.interleave, p.boxDim[0], false))
        return;
    auto enc = encodeTiled(p, ctx.arch);
    if (!enc) {
        SourceSpan whole = r.toks[0].span;
        whole.length = r.toks.back().span.column + r.toks.back().span.length - whole.column;
        if (r.toks.back().span.line != whole.line) whole.length = r.toks[0].span.length;
        for (Diagnostic d : enc.diagnostics()) {
            if (!d.span.valid()) d.span = spanForEncodeDiag(d, opts, type->span, whole);
            if (!l.strides && d.message.find("globalStrides") != std::string::npos) {
                d.span = l.dims->span;
                d.message += " (strides= was omitted, so the dense default from dims was used; give padded "
                             "strides=[...])";
            }
            ctx.diags.push_back(std::move(d));
        }
        return;
    }
    if (rolesOpt && !parseRoles(ctx, *rolesOpt, p.tensorRank, t.roles)) return;
    t.map = std::move(enc).value();
    if (swizzle96) t.map.p.swizzle = TensorSwizzle::PTX_96B; // as tensormap.replace .swizzle_mode 4 would
    // The next default tensor starts one page after this one's last page.
    const uint64_t end = p.globalAddress + t.extent;
    if (!explicitAddress && end < std::numeric_limits<uint64_t>::max() - 2 * kGlobalSpacing)
        ctx.nextGlobal = (end + kGlobalSpacing - 1) / kGlobalSpacing * kGlobalSpacing + kGlobalSpacing;
    ctx.addTensorMap(std::move(t));
}

} // namespace layoutscope::scn
