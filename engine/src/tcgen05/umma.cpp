// tcgen05.mma instruction descriptor, element types and operand homes (umma.hpp; PTX ISA 9.2
// §9.7.16.10.9, instruction descriptor §9.7.16.4.2; CuTe UMMA::InstrDescriptor).
#include "layoutscope/tcgen05/umma.hpp"

#include "layoutscope/core/number_formats.hpp"

#include <string>

namespace layoutscope {
namespace {

constexpr const char* kIdescRef =
    "PTX ISA 9.2 §9.7.16.4.2 (instruction descriptor); CuTe UMMA::InstrDescriptor";

uint32_t bits(uint32_t v, int lo, int n) {
    return (v >> lo) & ((1u << n) - 1);
}

Diagnostic idescError(std::string msg, DiagCode code = DiagCode::InvalidValue) {
    return Diagnostic{Severity::Error, code, {}, std::move(msg), kIdescRef, Provenance::PtxText};
}

Diagnostic shapeError(std::string msg) {
    return Diagnostic{Severity::Error,
                      DiagCode::InvalidValue,
                      {},
                      std::move(msg),
                      "PTX ISA 9.2 §9.7.16.2.1 (matrix shape, Table 39); instruction descriptor §9.7.16.4.2",
                      Provenance::PtxText};
}

// The sparse shapes and kinds whose metadata layout in Tensor Memory the model knows (umma_ws_sp.hpp):
// 128 rows of A per CTA (M = 128 .cta_group::1 or .ws, M = 256 .cta_group::2) or .ws M = 64 / 32, with the
// 2:4 kinds f16, f8f6f4 and i8. The others are given by PTX figures only.
Result<UmmaOp> checkSparseModelled(const UmmaOp& op) {
    auto no = [](std::string msg) {
        return Diagnostic{Severity::Error,
                          DiagCode::Unsupported,
                          {},
                          std::move(msg),
                          "PTX ISA 9.2 §9.7.16.10.8 (sparse matrices), §9.7.16.10.5 (data path layouts)",
                          Provenance::PtxText};
    };
    if (op.kind == UmmaKind::Tf32)
        return no("tcgen05.mma.sp kind::tf32 (1:2 sparsity): its metadata layout in Tensor Memory is not "
                  "modelled; kind::f16, f8f6f4 and i8 (2:4) are");
    if (!op.ws && op.ctaGroup == 1 && op.m == 64)
        return no(
            "tcgen05.mma.sp with M = 64 (Layout F, half the datapath lanes): its metadata layout is not "
            "modelled; M = 128, M = 256 .cta_group::2 and the .ws shapes are");
    if (!op.ws && op.ctaGroup == 2 && op.m == 128)
        return no("tcgen05.mma.sp with M = 128 .cta_group::2 (Layout C, half the datapath lanes): its "
                  "metadata layout is not modelled; M = 256 .cta_group::2 is");
    if (ummaTypeBits(op.a) == 8 && op.spSelector != 0)
        return no("sparsity selector (idesc bits [0,2)) = " + std::to_string(op.spSelector) + " with " +
                  ummaKindName(op.kind) +
                  ": only 0 is modelled for the 8-bit kinds (unverified: what the other values select)");
    return op;
}

} // namespace

const char* ummaKindName(UmmaKind k) {
    switch (k) {
    case UmmaKind::F16:
        return "kind::f16";
    case UmmaKind::Tf32:
        return "kind::tf32";
    case UmmaKind::F8f6f4:
        return "kind::f8f6f4";
    case UmmaKind::I8:
        return "kind::i8";
    case UmmaKind::Mxf8f6f4:
        return "kind::mxf8f6f4";
    case UmmaKind::Mxf4:
        return "kind::mxf4";
    case UmmaKind::Mxf4nvf4:
        return "kind::mxf4nvf4";
    }
    return "?";
}

bool ummaKindBlockScaled(UmmaKind k) {
    return k == UmmaKind::Mxf8f6f4 || k == UmmaKind::Mxf4 || k == UmmaKind::Mxf4nvf4;
}

const char* ummaTypeName(UmmaType t) {
    switch (t) {
    case UmmaType::F16:
        return "f16";
    case UmmaType::Bf16:
        return "bf16";
    case UmmaType::Tf32:
        return "tf32";
    case UmmaType::E4m3:
        return "e4m3";
    case UmmaType::E5m2:
        return "e5m2";
    case UmmaType::U8:
        return "u8";
    case UmmaType::S8:
        return "s8";
    case UmmaType::F32:
        return "f32";
    case UmmaType::S32:
        return "s32";
    case UmmaType::E2m1:
        return "e2m1";
    }
    return "?";
}

uint32_t ummaTypeBits(UmmaType t) {
    switch (t) {
    case UmmaType::F16:
    case UmmaType::Bf16:
        return 16;
    case UmmaType::Tf32:
    case UmmaType::F32:
    case UmmaType::S32:
        return 32;
    case UmmaType::E4m3:
    case UmmaType::E5m2:
    case UmmaType::U8:
    case UmmaType::S8:
        return 8;
    case UmmaType::E2m1:
        return 4;
    }
    return 32;
}

double ummaInputValue(UmmaType t, uint32_t raw) {
    switch (t) {
    case UmmaType::F16:
        return decodeF16(uint16_t(raw));
    case UmmaType::Bf16:
        return decodeBf16(uint16_t(raw));
    case UmmaType::Tf32:
        return decodeTf32(raw);
    case UmmaType::E4m3:
        return decodeNarrow(NarrowFormat::E4M3, raw & 0xFF);
    case UmmaType::E5m2:
        return decodeNarrow(NarrowFormat::E5M2, raw & 0xFF);
    case UmmaType::U8:
        return double(raw & 0xFF);
    case UmmaType::S8:
        return double(int8_t(raw & 0xFF));
    case UmmaType::F32:
        return decodeF32(raw);
    case UmmaType::S32:
        return double(int32_t(raw));
    case UmmaType::E2m1:
        return decodeNarrow(NarrowFormat::E2M1, raw & 0xF);
    }
    return 0;
}

uint32_t ummaK(const UmmaOp& op) {
    return 256 / ummaTypeBits(op.a) * (op.sparse ? 2 : 1);
}

UmmaDShape ummaDShape(const UmmaOp& op) {
    return UmmaDShape{op.m, op.n, op.ctaGroup, ummaTypeBits(op.d), op.ws, op.sparse};
}

const char* ummaCollectorOpName(UmmaCollectorOp o) {
    switch (o) {
    case UmmaCollectorOp::Discard:
        return "discard";
    case UmmaCollectorOp::Fill:
        return "fill";
    case UmmaCollectorOp::Use:
        return "use";
    case UmmaCollectorOp::Lastuse:
        return "lastuse";
    }
    return "?";
}

Result<UmmaOp> decodeUmmaIdesc(UmmaKind kind, uint32_t ctaGroup, uint32_t v, UmmaForm form) {
    UmmaOp op;
    op.kind = kind;
    op.ctaGroup = ctaGroup;
    op.idesc = v;
    op.ws = form.ws;
    op.sparse = form.sparse;
    const std::string k = ummaKindName(kind);
    if (!form.sparse && bits(v, 0, 3) != 0)
        return idescError("idesc bits [0,3) (sparsity) must be 0 for a dense tcgen05.mma (bit 2 = 1 is the "
                          ".sp form's, with tcgen05.mma.sp)");
    if (form.sparse && bits(v, 2, 1) != 1)
        return idescError("idesc bit 2 (sparsity) must be 1 for tcgen05.mma.sp");
    op.spSelector = form.sparse ? bits(v, 0, 2) : 0;
    if (bits(v, 3, 1) != 0 && kind != UmmaKind::I8)
        return idescError("idesc bit 3 (saturate) is for integer kinds only");
    if (bits(v, 6, 1) || bits(v, 23, 1) || bits(v, 29, 1))
        return idescError("idesc reserved bits 6, 23 or 29 are set");
    if (bits(v, 30, 2) && !form.ws)
        return idescError("idesc bits [30,32) (maximum B shift) are for tcgen05.mma.ws only");
    op.maxShift = bits(v, 30, 2) ? 4u << bits(v, 30, 2) : 0; // 1: 8, 2: 16, 3: 32
    const uint32_t dfmt = bits(v, 4, 2), afmt = bits(v, 7, 3), bfmt = bits(v, 10, 3);
    const std::string fmts = "idesc A/B formats (bits [7,10) = " + std::to_string(afmt) +
                             ", [10,13) = " + std::to_string(bfmt) + ") for " + k + ": ";
    switch (kind) {
    case UmmaKind::F16:
        if (afmt > 1 || bfmt > 1 || afmt != bfmt) return idescError(fmts + "both 0 (F16) or both 1 (BF16)");
        op.a = op.b = afmt == 0 ? UmmaType::F16 : UmmaType::Bf16;
        break;
    case UmmaKind::Tf32:
        if (afmt != 2 || bfmt != 2) return idescError(fmts + "both 2 (TF32)");
        op.a = op.b = UmmaType::Tf32;
        break;
    case UmmaKind::F8f6f4: {
        auto f8 = [](uint32_t f) { return f == 0 ? UmmaType::E4m3 : UmmaType::E5m2; };
        for (uint32_t f : {afmt, bfmt}) {
            if (f == 3 || f == 4 || f == 5)
                return idescError(fmts +
                                      std::string(f == 5   ? "E2M1 (5)"
                                                  : f == 3 ? "E2M3 (3)"
                                                           : "E3M2 (4)") +
                                      " operands (f6/f4 in 8-bit shared-memory containers) are not modelled; "
                                      "E4M3 (0) and E5M2 (1) are",
                                  DiagCode::Unsupported);
            if (f > 1) return idescError(fmts + "0 (E4M3), 1 (E5M2), 3 (E2M3), 4 (E3M2) or 5 (E2M1)");
        }
        op.a = f8(afmt);
        op.b = f8(bfmt);
        break;
    }
    case UmmaKind::I8:
        if (afmt > 1 || bfmt > 1) return idescError(fmts + "0 (U8) or 1 (S8)");
        op.a = afmt ? UmmaType::S8 : UmmaType::U8;
        op.b = bfmt ? UmmaType::S8 : UmmaType::U8;
        op.saturate = bits(v, 3, 1);
        break;
    case UmmaKind::Mxf8f6f4:
    case UmmaKind::Mxf4:
    case UmmaKind::Mxf4nvf4:
        return idescError(k + " is block-scaled: its descriptor is decoded by decodeUmmaIdescBlockScaled");
    }
    if (kind == UmmaKind::I8) {
        if (dfmt != 2)
            return idescError("idesc D format (bits [4,6) = " + std::to_string(dfmt) +
                              "): 2 (S32) for kind::i8");
        if (bits(v, 13, 2)) return idescError("idesc negate bits 13/14 must be 0 for kind::i8");
        op.d = UmmaType::S32;
    } else if (kind == UmmaKind::F16 || kind == UmmaKind::Tf32) {
        if (dfmt != 1 && !(dfmt == 0 && kind == UmmaKind::F16 && afmt == 0))
            return idescError("idesc D format (bits [4,6) = " + std::to_string(dfmt) +
                              "): 1 (F32), or 0 (F16) with F16 inputs");
        op.d = dfmt == 1 ? UmmaType::F32 : UmmaType::F16;
    } else {
        if (dfmt > 1)
            return idescError("idesc D format (bits [4,6) = " + std::to_string(dfmt) +
                              "): 1 (F32) or 0 (F16)");
        op.d = dfmt == 1 ? UmmaType::F32 : UmmaType::F16;
    }
    op.negA = bits(v, 13, 1);
    op.negB = bits(v, 14, 1);
    op.transA = bits(v, 15, 1);
    op.transB = bits(v, 16, 1);
    op.m = bits(v, 24, 5) << 4;
    op.n = bits(v, 17, 6) << 3;
    if (form.ws) { // PTX ISA 9.2 §9.7.16.2.1 Table 39: .ws is .cta_group::1, M 32/64/128, N 64/128/256
        if (ctaGroup != 1) return shapeError("tcgen05.mma.ws is .cta_group::1 only");
        if (op.m != 32 && op.m != 64 && op.m != 128)
            return shapeError("idesc M (bits [24,29) << 4) = " + std::to_string(op.m) +
                              ": 32, 64 or 128 for tcgen05.mma.ws");
        if (op.n != 64 && op.n != 128 && (op.n != 256 || form.sparse))
            return shapeError(
                "idesc N (bits [17,23) << 3) = " + std::to_string(op.n) + ": " +
                (form.sparse ? "64 or 128 for tcgen05.mma.ws.sp" : "64, 128 or 256 for tcgen05.mma.ws"));
        return form.sparse ? checkSparseModelled(op) : Result<UmmaOp>(op);
    }
    const bool mOk = ctaGroup == 1 ? (op.m == 64 || op.m == 128) : (op.m == 128 || op.m == 256);
    if (!mOk)
        return idescError("idesc M (bits [24,29) << 4) = " + std::to_string(op.m) + ": " +
                          (ctaGroup == 1 ? "64 or 128 with .cta_group::1" : "128 or 256 with .cta_group::2"));
    const uint32_t nStep = op.m == 64 ? 8 : 16;
    if (op.n < nStep || op.n > 256 || op.n % nStep != 0)
        return idescError("idesc N (bits [17,23) << 3) = " + std::to_string(op.n) + ": a multiple of " +
                          std::to_string(nStep) + " in " + std::to_string(nStep) +
                          "..256 for M = " + std::to_string(op.m));
    return form.sparse ? checkSparseModelled(op) : Result<UmmaOp>(op);
}

UmmaDCell ummaATmemCell(const UmmaOp& op, uint32_t m, uint32_t k) {
    const UmmaDShape s = ummaDShape(op);
    UmmaDCell c = ummaDCell(s, m, 0); // the lane of row m (Layout B: lanes 0-63 for column 0)
    const uint32_t bitsA = ummaTypeBits(op.a);
    c.column = k * bitsA / 32;
    c.byte = (k * bitsA / 8) % 4;
    return c;
}

UmmaRowHome ummaARow(const UmmaOp& op, uint32_t m) {
    if (op.ctaGroup == 1) return {0, m};
    return {m / (op.m / 2), m % (op.m / 2)};
}

UmmaRowHome ummaBRow(const UmmaOp& op, uint32_t n) {
    if (op.ctaGroup == 1) return {0, n};
    return {n / (op.n / 2), n % (op.n / 2)};
}

} // namespace layoutscope
