// im2col in scenarios: the `tensormap NAME im2col|im2col_wide` directive (cuTensorMapEncodeIm2col /
// cuTensorMapEncodeIm2colWide, tma.md §2.3-2.4) and the lowering, execution and summary of
// .im2col / .im2col::w / .im2col::w::128 loads and .im2col_no_offs stores (PTX ISA 9.2 §5.5.4, §5.5.5;
// docs/im2col.md). scenario_tensormap.cpp and scenario_ops.cpp call in here from small hooks.
#include "scenario/im2col.hpp"
#include "layoutscope/core/hex.hpp"
#include "scenario/tma_extra.hpp"

#include "layoutscope/tma/tma.hpp"
#include "tma/im2col.hpp"

#include <cstdio>
#include <limits>

namespace layoutscope::scn {
namespace {

constexpr const char* kIm2colRef = "cuda.h cuTensorMapEncodeIm2col / cuTensorMapEncodeIm2colWide";

// Place an encode diagnostic on the option it names (or the whole directive).
SourceSpan spanFor(const Diagnostic& d, const std::vector<Option>& opts, SourceSpan fallback) {
    struct Key {
        const char* needle;
        const char* a;
        const char* b;
    };
    static constexpr Key kKeys[] = {
        {"pixelBoxLowerCorner", "lower", "pixelBoxLowerCorner"},
        {"pixelBoxUpperCorner", "upper", "pixelBoxUpperCorner"},
        {"bounding box", "upper", "lower"},
        {"channelsPerPixel", "channels", "channelsPerPixel"},
        {"pixelsPerColumn", "pixels", "pixelsPerColumn"},
        {"elementStrides", "elementStrides", "elementStrides"},
        {"globalStrides", "strides", "globalStrides"},
        {"globalDim", "dims", "globalDim"},
        {"globalAddress", "address", "globalAddress"},
        {"interleave", "interleave", "interleave"},
        {"swizzle", "swizzle", "swizzle"},
        {"oobFill", "oob", "oobFill"},
        {"tensorRank", "dims", "globalDim"},
        {"mode", "mode", "mode"},
    };
    const std::string text = d.message + " " + d.ruleRef;
    for (const Key& k : kKeys) {
        if (text.find(k.needle) == std::string::npos) continue;
        for (const Option& o : opts)
            if (o.key->text == k.a || o.key->text == k.b) return o.span;
    }
    return fallback;
}

} // namespace

void im2colTensormap(DirectiveReader& r, ScenarioTensorMap t, const Tok& modeTok) {
    Context& ctx = r.ctx;
    const bool wide = modeTok.text == "im2col_wide";
    const Tok* type = r.next();
    if (!type || type->kind != Tok::Word) {
        ctx.error(DiagCode::Syntax, type ? type->span : r.endSpan(),
                  "expected a data type such as FLOAT16 after '" + modeTok.text + "'");
        return;
    }
    TensorMapIm2colParams ip;
    TensorMapIm2colWideParams wp;
    TensorMapTiledParams& p = ip.base;
    if (auto dt = parseDataType(type->text)) {
        p.dataType = *dt;
    } else {
        ctx.error(DiagCode::InvalidValue, type->span, "unknown data type '" + quoted(type->text) + "'",
                  "cuda.h CUtensorMapDataType", Provenance::CudaHeader);
        return;
    }
    std::vector<Option> opts;
    if (!r.options(opts)) return;
    const Option *dims = nullptr, *strides = nullptr, *lower = nullptr, *upper = nullptr, *es = nullptr;
    bool explicitAddress = false, haveChannels = false, havePixels = false;
    const Option* swizzle96 = nullptr; // swizzle=96B (scenario_tma_extra.cpp allow96BSwizzle)
    const int64_t kMaxI = std::numeric_limits<int64_t>::max();
    auto bad = [&](const Option& o, std::string msg) {
        ctx.error(DiagCode::InvalidValue, o.value ? o.value->span : o.span, std::move(msg), kIm2colRef,
                  Provenance::CudaHeader);
    };
    for (const Option& o : opts) {
        const std::string& k = o.key->text;
        if (k == "dims" || k == "globalDim")
            dims = &o;
        else if (k == "strides" || k == "globalStrides")
            strides = &o;
        else if (k == "lower" || k == "pixelBoxLowerCorner" || k == "pixelBoxLowerCornerWidth")
            lower = &o;
        else if (k == "upper" || k == "pixelBoxUpperCorner" || k == "pixelBoxUpperCornerWidth")
            upper = &o;
        else if (k == "elementStrides")
            es = &o;
        else if (k == "channels" || k == "channelsPerPixel" || k == "pixels" || k == "pixelsPerColumn") {
            if (!o.value) return bad(o, k + "= takes one integer");
            auto v = r.integer(*o.value, k.c_str(), 0, 0xFFFFFFFF);
            if (!v) return;
            (k[0] == 'c' ? ip.channelsPerPixel : ip.pixelsPerColumn) = static_cast<uint32_t>(*v);
            (k[0] == 'c' ? haveChannels : havePixels) = true;
        } else if (k == "interleave" || k == "swizzle" || k == "l2" || k == "l2Promotion" || k == "oob" ||
                   k == "oobFill" || k == "mode") {
            const std::string v = o.value ? o.value->text : std::string();
            bool ok = true;
            if (k == "interleave")
                ok = (p.interleave = parseInterleave(v).value_or(TensorInterleave(99))) !=
                     TensorInterleave(99);
            else if (k == "swizzle" && v == "96B")
                swizzle96 = &o; // PTX .swizzle_mode 4: encoded as NONE, set after encoding
            else if (k == "swizzle")
                ok = (p.swizzle = parseSwizzle(v).value_or(TensorSwizzle(99))) != TensorSwizzle(99);
            else if (k == "l2" || k == "l2Promotion")
                ok = (p.l2Promotion = parseL2Promotion(v).value_or(TensorL2Promotion(99))) !=
                     TensorL2Promotion(99);
            else if (k == "mode")
                ok = (wp.mode = parseIm2colWideMode(v).value_or(TensorIm2colWideMode(99))) !=
                     TensorIm2colWideMode(99);
            else if (v == "zero")
                p.oobFill = TensorOobFill::NONE;
            else if (v == "nan")
                p.oobFill = TensorOobFill::NAN_REQUEST_ZERO_FMA;
            else
                ok = (p.oobFill = parseOobFill(v).value_or(TensorOobFill(99))) != TensorOobFill(99);
            if (!ok) return bad(o, "unknown " + k + " '" + quoted(v) + "'");
            if (k == "mode" && !wide) return bad(o, "mode= (W or W128) belongs to 'im2col_wide' maps");
        } else if (k == "address" || k == "globalAddress" || k == "mapAddress") {
            if (!o.value) return bad(o, k + "= takes one address");
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
        } else {
            ctx.error(DiagCode::InvalidValue, o.key->span,
                      "unknown option '" + quoted(k) + "' for an " + modeTok.text +
                          " tensormap (dims, strides, lower, upper, channels, pixels, elementStrides, "
                          "interleave, swizzle, "
                          "l2, oob, address, mapAddress, fill" +
                          (wide ? ", mode)" : ")"));
            return;
        }
    }
    if (!dims || !lower || !upper || !haveChannels || !havePixels) {
        ctx.error(DiagCode::Syntax, r.endSpan(),
                  "tensormap " + t.name + " (" + modeTok.text +
                      ") needs dims=[...], lower=, upper=, channels= and pixels=");
        return;
    }
    if (!dims->isList || dims->list.size() < 3 || dims->list.size() > kMaxTensorRank)
        return bad(*dims, "dims must list 3 to 5 extents {C, W, (H, (D,)) N}, C first");
    const size_t rank = dims->list.size();
    p.tensorRank = static_cast<uint32_t>(rank);
    const size_t corners = wide ? 1 : rank - 2;
    for (const Option* c : {lower, upper}) {
        const size_t n = c->isList ? c->list.size() : c->value ? 1 : 0;
        if (n != corners)
            return bad(*c, c->key->text + " must have " + std::to_string(corners) + " entr" +
                               (corners == 1 ? "y" : "ies") + (wide ? " (W only)" : " (W, H, D order)"));
    }
    if ((strides && (!strides->isList || strides->list.size() != rank - 1)) ||
        (es && (!es->isList || es->list.size() != rank)))
        return bad(strides && (!strides->isList || strides->list.size() != rank - 1) ? *strides : *es,
                   "strides= needs rank-1 entries and elementStrides= rank entries");
    for (size_t k = 0; k < rank; ++k) {
        auto d = r.integer(*dims->list[k], "globalDim", 0, kMaxI);
        if (!d) return;
        p.globalDim[k] = static_cast<uint64_t>(*d);
        if (es) {
            auto e = r.integer(*es->list[k], "elementStrides", 0, 0xFFFFFFFF);
            if (!e) return;
            p.elementStrides[k] = static_cast<uint32_t>(*e);
        }
    }
    for (size_t k = 0; k < corners; ++k) {
        auto lo =
            r.integer(lower->isList ? *lower->list[k] : *lower->value, "lower corner", INT32_MIN, INT32_MAX);
        auto up =
            r.integer(upper->isList ? *upper->list[k] : *upper->value, "upper corner", INT32_MIN, INT32_MAX);
        if (!lo || !up) return;
        ip.pixelBoxLowerCorner[k] = static_cast<int32_t>(*lo);
        ip.pixelBoxUpperCorner[k] = static_cast<int32_t>(*up);
    }
    if (strides) {
        for (size_t k = 0; k + 1 < rank; ++k) {
            auto s = r.integer(*strides->list[k], "globalStrides", 0, kMaxI);
            if (!s) return;
            p.globalStrides[k] = static_cast<uint64_t>(*s);
        }
    } else { // dense: C * elemBytes (or slices for interleaved maps are the user's to give)
        const uint32_t bits = elementBits(p.dataType) ? elementBits(p.dataType) : 8;
        uint64_t s = (p.globalDim[0] * bits + 7) / 8;
        for (size_t k = 0; k + 1 < rank; ++k) {
            p.globalStrides[k] = s;
            s *= p.globalDim[k + 1];
        }
    }
    const auto extent = tensorExtent(p);
    if (!extent) return bad(*dims, "the tensor's byte extent does not fit in 64 bits");
    t.extent = *extent;
    if (!explicitAddress) p.globalAddress = ctx.nextGlobal;
    if (const ScenarioTensorMap* other = ctx.overlappingTensor(p.globalAddress, t.extent)) {
        ctx.error(DiagCode::InvalidValue, t.span,
                  "tensor " + t.name + " overlaps tensor " + other->name + " in global memory");
        return;
    }
    if (swizzle96 && !allow96BSwizzle(ctx, swizzle96->span, p.dataType, p.interleave, ip.channelsPerPixel,
                                      wide && wp.mode == TensorIm2colWideMode::W128))
        return;
    Result<TensorMap> enc = [&] {
        if (!wide) return encodeIm2col(ip, ctx.arch);
        wp.base = p;
        wp.pixelBoxLowerCornerWidth = ip.pixelBoxLowerCorner[0];
        wp.pixelBoxUpperCornerWidth = ip.pixelBoxUpperCorner[0];
        wp.channelsPerPixel = ip.channelsPerPixel;
        wp.pixelsPerColumn = ip.pixelsPerColumn;
        return encodeIm2colWide(wp, ctx.arch);
    }();
    if (!enc) {
        for (Diagnostic d : enc.diagnostics()) {
            if (!d.span.valid()) d.span = spanFor(d, opts, modeTok.span);
            ctx.diags.push_back(std::move(d));
        }
        return;
    }
    t.map = std::move(enc).value();
    if (swizzle96) t.map.p.swizzle = TensorSwizzle::PTX_96B;
    const uint64_t end = p.globalAddress + t.extent;
    if (!explicitAddress && end < std::numeric_limits<uint64_t>::max() - 2 * kGlobalSpacing)
        ctx.nextGlobal = (end + kGlobalSpacing - 1) / kGlobalSpacing * kGlobalSpacing + kGlobalSpacing;
    ctx.addTensorMap(std::move(t));
}

std::optional<Im2colQualifier> im2colQualifier(std::string_view tok) {
    if (tok == ".im2col") return Im2colQualifier{TmaIm2colMode::Im2col, false};
    if (tok == ".im2col::w") return Im2colQualifier{TmaIm2colMode::W, false};
    if (tok == ".im2col::w::128") return Im2colQualifier{TmaIm2colMode::W128, false};
    if (tok == ".im2col_no_offs") return Im2colQualifier{TmaIm2colMode::Im2col, true};
    return std::nullopt;
}

ScenarioOp im2colLoadOp(const TmaTileLoad& ld, TmaIm2colMode mode, const std::vector<int64_t>& info) {
    TmaIm2colLoad op;
    op.load = ld;
    op.mode = mode;
    auto at = [&](size_t i) { return i < info.size() ? static_cast<uint16_t>(info[i]) : uint16_t(0); };
    if (mode == TmaIm2colMode::Im2col)
        op.offsets = {at(0), at(1), at(2)};
    else
        op.wHalo = at(0), op.wOffset = at(1);
    return op;
}

ScenarioOp im2colStoreOp(const TmaTileStore& st) {
    return TmaIm2colStore{st};
}

TensorMap im2colBoxMap(const TensorMap& map, TmaIm2colMode mode, uint32_t wHalo) {
    // rows of channelsPerPixel elements (interleaved: pixelsPerColumn slices of 16/32 B)
    uint32_t rows = map.pixelsPerColumn;
    if (map.mode == TensorMap::Mode::Im2colWide)
        rows = mode == TmaIm2colMode::W128 ? 128 + 4 * wHalo : map.pixelsPerColumn + wHalo;
    TensorMap m = map;
    m.mode = TensorMap::Mode::Tiled;
    m.p.tensorRank = 2;
    const bool il = map.p.interleave != TensorInterleave::NONE;
    m.p.boxDim[0] = il ? (map.p.interleave == TensorInterleave::I32B ? 32u : 16u) /
                             std::max(1u, elementBits(map.p.dataType) / 8)
                       : map.channelsPerPixel;
    m.p.boxDim[1] = rows;
    m.p.elementStrides = {1, 1, 1, 1, 1};
    m.p.interleave = TensorInterleave::NONE;
    if (il) m.p.swizzle = TensorSwizzle::NONE; // interleaved images are dense
    return m;
}

Status executeIm2colScenarioOp(const ScenarioOp& op, MachineState& state, TraceBuilder& trace) {
    if (const auto* ld = std::get_if<TmaIm2colLoad>(&op)) return executeTmaIm2colLoad(*ld, state, trace);
    return executeTmaIm2colStore(std::get<TmaIm2colStore>(op), state, trace);
}

std::string im2colOpSummary(const ScenarioOp& op, uint64_t bytesWritten) {
    if (const auto* ld = std::get_if<TmaIm2colLoad>(&op)) {
        const TensorMap& m = ld->load.map;
        const char* mode = ld->mode == TmaIm2colMode::Im2col ? "im2col"
                           : ld->mode == TmaIm2colMode::W    ? "im2col::w"
                                                             : "im2col::w::128";
        std::string info = ld->mode == TmaIm2colMode::Im2col
                               ? "offsets {" + std::to_string(ld->offsets[0]) +
                                     (m.p.tensorRank > 3 ? ", " + std::to_string(ld->offsets[1]) : "") +
                                     (m.p.tensorRank > 4 ? ", " + std::to_string(ld->offsets[2]) : "") + "}"
                               : "wHalo " + std::to_string(ld->wHalo) + ", wOffset " +
                                     std::to_string(ld->wOffset) + " (unverified, open questions 4, 5)";
        // Pixel rows actually loaded (tma_im2col.cpp): ::w adds wHalo rows after the pixelsPerColumn main
        // ones; ::w::128 loads 128 main pixels (pixelsPerColumn ignored) and wHalo after every 32.
        std::string pixels = std::to_string(m.pixelsPerColumn) + " pixels";
        if (ld->mode == TmaIm2colMode::W)
            pixels = std::to_string(m.pixelsPerColumn + ld->wHalo) + " pixels (" +
                     std::to_string(m.pixelsPerColumn) + " + " + std::to_string(ld->wHalo) + " halo)";
        else if (ld->mode == TmaIm2colMode::W128)
            pixels = std::to_string(128 + 4 * ld->wHalo) + " pixels (128 + 4 x " + std::to_string(ld->wHalo) +
                     " halo; pixelsPerColumn ignored)";
        return std::string("TMA ") + mode + " load: " + pixels + " x " + std::to_string(m.channelsPerPixel) +
               " channels, " + info + ", " + std::to_string(bytesWritten) + " B written at " +
               hex(ld->load.dstAddr) +
               (ld->load.multicast ? ", multicast mask " + hex(ld->load.ctaMask) : "");
    }
    if (const auto* st = std::get_if<TmaIm2colStore>(&op))
        return "TMA im2col_no_offs store: " + std::to_string(st->store.map.pixelsPerColumn) + " pixels, " +
               std::to_string(bytesWritten) + " B written to global from CTA " +
               std::to_string(st->store.srcCta) + " (rule measured on sm_90: docs/im2col.md §3)";
    return "";
}

} // namespace layoutscope::scn
