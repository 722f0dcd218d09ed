// Decoding of the matrix and async-copy instructions into Op + MmaForm (PTX ISA 9.2 §9.7.9.25 cp.async,
// §9.7.14.5 mma.sync, §9.7.14.5.15 ldmatrix, §9.7.14.5.16 stmatrix, §9.7.14.5.17 movmatrix, §9.7.15.5
// wgmma). Every form outside the ones executed is refused here with the reason, so the run stops at it.
#include "exec/decode.hpp"
#include "exec/mma_exec.hpp"

#include <algorithm>

namespace layoutscope::exec {

namespace {

using Parts = std::vector<std::string>;

ME meOf(const std::string& t) {
    static const std::pair<const char*, ME> kNames[] = {
        {"f16", ME::F16}, {"bf16", ME::BF16}, {"tf32", ME::TF32}, {"e4m3", ME::E4M3}, {"e5m2", ME::E5M2},
        {"f32", ME::F32}, {"f64", ME::F64},   {"s8", ME::S8},     {"u8", ME::U8},     {"s32", ME::S32},
        {"s4", ME::S4},   {"u4", ME::U4},     {"b1", ME::B1}};
    for (const auto& [n, e] : kNames)
        if (t == n) return e;
    return ME::None;
}

bool has(const Parts& p, const char* m) {
    return std::find(p.begin() + 1, p.end(), m) != p.end();
}

// "m64n128k16" -> {64, 128, 16}.
bool shapeOf(const std::string& s, MmaForm& f) {
    unsigned m = 0, n = 0, k = 0;
    int used = 0;
    if (std::sscanf(s.c_str(), "m%un%uk%u%n", &m, &n, &k, &used) != 3 || size_t(used) != s.size())
        return false;
    f.m = uint16_t(m), f.n = uint16_t(n), f.k = uint16_t(k);
    return true;
}

std::optional<std::string> operands(const std::string& rest, DecodeScope& s, Op& op, size_t want) {
    for (const auto& a : splitOperands(rest)) {
        Opnd o;
        if (auto err = parseOperand(a, s, o)) return err;
        op.o.push_back(std::move(o));
    }
    if (want && op.o.size() != want)
        return std::to_string(op.o.size()) + " operands; this form takes " + std::to_string(want);
    return std::nullopt;
}

size_t vecLen(const Opnd& o) {
    return o.kind == OK::Vec ? o.elems.size() : 1;
}

std::optional<std::string> cpAsync(const Parts& p, const std::string& rest, DecodeScope& s, Op& op,
                                   MmaForm& f) {
    if (p.size() > 2 && (p[2] == "commit_group" || p[2] == "wait_group" || p[2] == "wait_all")) {
        op.opc = Opc::CpAsyncGroup;
        op.mode = p[2] == "commit_group" ? 0 : 1;
        if (auto err = operands(rest, s, op, p[2] == "wait_group" ? 1 : 0)) return err;
        if (p[2] == "wait_group") {
            if (op.o[0].kind != OK::Imm || op.o[0].imm < 0)
                return std::string("cp.async.wait_group takes a non-negative integer constant");
            f.waitN = int(op.o[0].imm);
        }
        return std::nullopt;
    }
    if (p.size() > 3 && p[2] == "mbarrier" && p[3] == "arrive") {
        // cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr] (§9.7.9.25.3.4)
        op.opc = Opc::CpAsyncGroup;
        op.mode = 2;
        for (size_t i = 4; i < p.size(); ++i) {
            if (p[i] == "noinc")
                f.noinc = true;
            else if (p[i] == "shared" || p[i] == "shared::cta")
                op.space = Space::Shared;
            else if (p[i] != "b64")
                return "modifier `." + p[i] + "` of cp.async.mbarrier.arrive";
        }
        if (auto err = operands(rest, s, op, 1)) return err;
        if (op.o[0].kind != OK::Mem) return std::string("cp.async.mbarrier.arrive takes [addr]");
        return std::nullopt;
    }
    if (p.size() < 5 || (p[2] != "ca" && p[2] != "cg") || (p[3] != "shared" && p[3] != "shared::cta") ||
        p[4] != "global")
        return std::string("expected cp.async.ca|cg.shared{::cta}.global [dst], [src], cp-size{, src-size}");
    bool cacheHint = false;
    for (size_t i = 5; i < p.size(); ++i) {
        if (p[i] == "L2::cache_hint")
            cacheHint = true;
        else if (p[i].rfind("L2::", 0) != 0)
            return "modifier `." + p[i] + "` of cp.async";
    }
    if (auto err = operands(rest, s, op, 0)) return err;
    const size_t base = op.o.size() - (cacheHint ? 1 : 0);
    if (base != 3 && base != 4)
        return std::string("cp.async takes [dst], [src], cp-size{, src-size|ignore-src}");
    if (op.o[0].kind != OK::Mem || op.o[1].kind != OK::Mem)
        return std::string("cp.async's dst and src are addresses in brackets");
    if (op.o[2].kind != OK::Imm || (op.o[2].imm != 4 && op.o[2].imm != 8 && op.o[2].imm != 16))
        return std::string("cp-size must be the constant 4, 8 or 16");
    f.cpSize = uint8_t(op.o[2].imm);
    if (p[2] == "cg" && f.cpSize != 16) return std::string("cp.async.cg takes cp-size 16 only");
    if (base == 4) {
        f.hasSrcSize = true;
        const std::string t = splitOperands(rest)[3]; // a copy: the vector is a temporary
        f.ignoreSrc = op.o[3].neg || (op.o[3].kind == OK::Reg && s.predRegs.count(t));
    }
    op.opc = Opc::CpAsync;
    return std::nullopt;
}

std::optional<std::string> wgmma(const Parts& p, const std::string& rest, DecodeScope& s, Op& op,
                                 MmaForm& f) {
    const std::string what = p.size() > 1 ? p[1] : "";
    if (what == "fence" || what == "commit_group" || what == "wait_group") {
        op.opc = Opc::WgmmaOrder;
        if (auto err = operands(rest, s, op, what == "wait_group" ? 1 : 0)) return err;
        if (what == "wait_group") {
            if (op.o[0].kind != OK::Imm || op.o[0].imm < 0)
                return std::string("wgmma.wait_group takes a non-negative integer constant");
            f.waitN = int(op.o[0].imm);
        }
        return std::nullopt;
    }
    if (what != "mma_async") return "`wgmma." + what + "` is not a wgmma instruction";
    // wgmma.mma_async{.sp}.sync.aligned.shape{.satfinite}.dtype.atype.btype (.sp: PTX ISA §9.7.15.6)
    const bool sparse = p.size() > 2 && p[2] == "sp";
    Parts q(p.begin() + (sparse ? 3 : 2), p.end());
    q.erase(std::remove_if(q.begin(), q.end(),
                           [](const std::string& x) { return x == "sync" || x == "aligned"; }),
            q.end());
    if (!q.empty() && q.size() == 5 && q[1] == "satfinite") f.satfinite = true, q.erase(q.begin() + 1);
    if (q.size() != 4 || !shapeOf(q[0], f))
        return std::string("expected wgmma.mma_async.sync.aligned.m64nNkK{.satfinite}.dtype.atype.btype");
    f.d = f.c = meOf(q[1]), f.a = meOf(q[2]), f.b = meOf(q[3]);
    const bool f16 = f.a == ME::F16 || f.a == ME::BF16, fp8 = f.a == ME::E4M3 || f.a == ME::E5M2;
    const bool integer = f.a == ME::S8 || f.a == ME::U8;
    const bool typesOk =
        (f16 && f.b == f.a && (f.d == ME::F32 || (f.d == ME::F16 && f.a == ME::F16))) ||
        (f.a == ME::TF32 && f.b == ME::TF32 && f.d == ME::F32) ||
        (fp8 && (f.b == ME::E4M3 || f.b == ME::E5M2) && (f.d == ME::F32 || f.d == ME::F16)) ||
        (integer && (f.b == ME::S8 || f.b == ME::U8) && f.d == ME::S32);
    if (!typesOk)
        return "types ." + q[1] + "." + q[2] + "." + q[3] +
               ": wgmma takes f16 (f16/f32 accumulator), bf16 and tf32 (f32), e4m3/e5m2 (f16/f32), s8/u8 "
               "(s32) (PTX ISA §9.7.15.5.2)";
    if (f.satfinite && !integer) return std::string(".satfinite is for the integer wgmma (s32 accumulator)");
    const unsigned wantK = (f16 ? 16 : f.a == ME::TF32 ? 8 : 32) * (sparse ? 2 : 1); // .sp: A is K/2 wide
    const bool nOk =
        integer ? (f.n == 8 || f.n == 16 || f.n == 24 || (f.n >= 32 && f.n % 16 == 0)) : f.n % 8 == 0;
    if (f.m != 64 || f.k != wantK || f.n < 8 || f.n > 256 || !nOk)
        return "shape " + q[0] + ": this type needs m64nNk" + std::to_string(wantK) + " with N " +
               (integer ? "8, 16, 24 or a multiple of 16 in 32..256" : "a multiple of 8 in 8..256");
    if (auto err = operands(rest, s, op, 0)) return err;
    Opnd meta; // .sp: d, a, b-desc, sp-meta, sp-sel, scale-d, ...: sp-meta moves to the end, sp-sel to the
               // form
    if (sparse) {
        if (op.o.size() < 6 || op.o[3].kind != OK::Reg)
            return std::string("wgmma.mma_async.sp takes d, a, b-desc, sp-meta (a .b32 register), sp-sel, "
                               "scale-d, ... (PTX ISA §9.7.15.6)");
        // unverified: the 8-bit types take sp-sel 0 only (their metadata lives in all 4 threads of a quad,
        // CUTLASS cute/atom/mma_traits_sm90_gmma_sparse.hpp ELayout_64x64)
        const int64_t maxSel = meBits(f.a) == 8 ? 0 : 1;
        if (op.o[4].kind != OK::Imm || op.o[4].imm < 0 || op.o[4].imm > maxSel)
            return "sp-sel must be the constant 0" + std::string(maxSel ? " or 1" : " for 8-bit types") +
                   " (PTX ISA §9.7.15.6)";
        meta = op.o[3];
        f.sparse = true, f.spSel = uint8_t(op.o[4].imm);
        op.o.erase(op.o.begin() + 3, op.o.begin() + 5);
    }
    const size_t nOps = op.o.size();
    f.aRegs = nOps > 1 && op.o[1].kind == OK::Vec;
    const size_t want = integer ? 4 : !f16 ? 6 : f.aRegs ? 7 : 8;
    if (nOps != want)
        return std::to_string(nOps) + " operands; wgmma ." + q[2] + " with A from " +
               (f.aRegs ? "registers" : "a descriptor") + " takes " + std::to_string(want) +
               " (d, a, b-desc, scale-d" + (integer ? "" : ", imm-scale-a, imm-scale-b") +
               (f16 ? (f.aRegs ? ", imm-trans-b" : ", imm-trans-a, imm-trans-b") : "") + ")";
    const size_t dRegs = f.d == ME::F16 ? f.n / 4 : f.n / 2;
    if (vecLen(op.o[0]) != dRegs)
        return "d has " + std::to_string(vecLen(op.o[0])) + " registers; ." + q[0] + "." + q[1] + " needs " +
               std::to_string(dRegs);
    if (f.aRegs && vecLen(op.o[1]) != 4)
        return std::string("A from registers is a vector of 4 .b32 registers");
    for (size_t i = 4; i < nOps; ++i) {
        const bool scale = i <= 5;
        const Opnd& o = op.o[i];
        const int64_t v = o.kind == OK::Imm ? o.imm : 99;
        if (scale ? (v != 1 && v != -1) : (v != 0 && v != 1))
            return std::string(scale ? "imm-scale-a/b must be the constant 1 or -1"
                                     : "imm-trans-a/b must be the constant 0 or 1");
        if (i == 4) f.scaleA = int8_t(v);
        if (i == 5) f.scaleB = int8_t(v);
        if (i == 6 && !f.aRegs) f.transA = v == 1;
        if (i == nOps - 1 && i >= 6) f.transB = v == 1;
    }
    if (sparse) op.o.push_back(meta);
    op.opc = Opc::Wgmma;
    return std::nullopt;
}

// ldmatrix / stmatrix / movmatrix (PTX ISA 9.2 §9.7.14.5.15-17): .m8n8 .b16, and the sm_100 .b8 shapes
// ldmatrix .m16n16 .x1/.x2 .trans .b8 | .b8x16.{b6x16_p32,b4x16_p64} (2 registers per matrix), ldmatrix
// .m8n16 .x1/.x2/.x4 .b8x16.{b6x16_p32,b4x16_p64} (no .trans), stmatrix .m16n8 .x1/.x2/.x4 .trans .b8.
std::optional<std::string> ldst(const Parts& p, const std::string& rest, DecodeScope& s, Op& op, MmaForm& f) {
    const bool st = p[0] == "stmatrix", mov = p[0] == "movmatrix";
    const char* kRef = " (PTX ISA 9.2 §9.7.14.5.15-16)";
    bool b8 = false, b8x16 = false, b16 = false;
    for (size_t i = 1; i < p.size(); ++i) {
        const std::string& m = p[i];
        if (m == "x1" || m == "x2" || m == "x4")
            f.num = uint8_t(m[1] - '0');
        else if (m == "trans")
            f.trans = true;
        else if (m == "m16n16" && !st && !mov)
            f.shape = 1;
        else if (m == "m8n16" && !st && !mov)
            f.shape = 2;
        else if (m == "m16n8" && st)
            f.shape = 3;
        else if (m == "b8")
            b8 = true;
        else if (m == "b8x16" && !st && !mov)
            b8x16 = true;
        else if ((m == "b6x16_p32" || m == "b4x16_p64") && !st && !mov)
            f.srcBits = uint8_t(m[1] - '0');
        else if (m == "b16")
            b16 = true;
        else if (m != "sync" && m != "aligned" && m != "m8n8" && m != "shared" && m != "shared::cta")
            return "modifier `." + m + "` of " + p[0] + " is not modelled";
    }
    if (f.shape == 0) {
        if (!has(p, "m8n8"))
            return p[0] + " needs a shape: .m8n8 (.b16)" +
                   std::string(mov  ? ""
                               : st ? ", .m16n8 (.b8)"
                                    : ", .m16n16 or .m8n16 (.b8 forms)") +
                   kRef;
        if (!b16 || b8 || b8x16) return p[0] + " .m8n8 needs the .b16 type" + kRef;
        if (mov && !f.trans) return std::string("movmatrix takes .trans");
    } else {
        if (b16) return p[0] + " .b16 takes the .m8n8 shape" + kRef;
        if (f.shape == 2 ? !(b8x16 && f.srcBits != 8) : !(b8 || (b8x16 && f.srcBits != 8)) || (b8 && b8x16))
            return std::string(f.shape == 2   ? "ldmatrix .m8n16 needs .b8x16.b6x16_p32 or .b8x16.b4x16_p64"
                               : f.shape == 1 ? "ldmatrix .m16n16 needs .b8 or .b8x16.b6x16_p32 / "
                                                ".b8x16.b4x16_p64"
                                              : "stmatrix .m16n8 needs .b8") +
                   kRef;
        if (b8x16 != (f.srcBits != 8)) return std::string(".b8x16 goes with .b6x16_p32 or .b4x16_p64") + kRef;
        if (f.shape == 2 && f.trans) return std::string("ldmatrix .m8n16 takes no .trans") + kRef;
        if (f.shape != 2 && !f.trans)
            return p[0] + (f.shape == 1 ? " .m16n16" : " .m16n8") + " requires .trans" + kRef;
        if (f.shape == 1 && f.num == 4) return std::string("ldmatrix .m16n16 takes .x1 or .x2") + kRef;
    }
    if (auto err = operands(rest, s, op, 2)) return err;
    const Opnd& regs = st ? op.o[1] : op.o[0];
    const size_t want = size_t(f.num) * (f.shape == 1 ? 2 : 1); // .m16n16: two registers per matrix
    if (!mov && vecLen(regs) != want)
        return "x" + std::to_string(f.num) + " takes " + std::to_string(want) + " registers, got " +
               std::to_string(vecLen(regs)) + std::string(f.shape == 1 ? " (.m16n16: two per matrix)" : "") +
               kRef;
    if (!mov && (st ? op.o[0] : op.o[1]).kind != OK::Mem) return p[0] + "'s address goes in brackets";
    op.space = has(p, "shared") || has(p, "shared::cta") ? Space::Shared : Space::Generic;
    op.opc = st ? Opc::Stmatrix : mov ? Opc::Movmatrix : Opc::Ldmatrix;
    return std::nullopt;
}

std::optional<std::string> mmaSync(const Parts& p, const std::string& rest, DecodeScope& s, Op& op,
                                   MmaForm& f) {
    // mma.sp{::ordered_metadata} (§9.7.14.6.3): d, a, b, c, e (metadata), f (sparsity selector).
    const bool sparse = p.size() > 1 && (p[1] == "sp" || p[1] == "sp::ordered_metadata");
    Parts q;
    for (size_t i = sparse ? 2 : 1; i < p.size(); ++i)
        if (p[i] != "sync" && p[i] != "aligned") q.push_back(p[i]);
    if (q.empty() || !shapeOf(q[0], f)) return std::string("expected mma.sync.aligned.mMnNkK...");
    q.erase(q.begin());
    if (q.size() >= 2 && (q[0] == "row" || q[0] == "col")) {
        if (q[0] != "row" || q[1] != "col")
            return "." + q[0] + "." + q[1] +
                   ": the executor models the .row.col forms (the only ones of "
                   "these shapes)";
        q.erase(q.begin(), q.begin() + 2);
    }
    if (!q.empty() && q[0] == "satfinite") f.satfinite = true, q.erase(q.begin());
    if (q.size() == 2 && (q[0] == "f32" || q[0] == "f16") && (q[1] == "bf16" || q[1] == "tf32"))
        return std::string("expected mma.sync.aligned.shape.row.col.dtype.atype.btype.ctype");
    if (q.size() == 6 && !sparse) { // .b1: dtype.b1.b1.ctype.bitOp.popc (the two in either order)
        const bool popc4 = q[4] == "popc", popc5 = q[5] == "popc";
        const std::string& bop = popc5 ? q[4] : q[5];
        if (popc4 == popc5 || (bop != "and" && bop != "xor"))
            return std::string("the .b1 mma ends in .and.popc or .xor.popc (PTX ISA §9.7.14.5.14)");
        f.bitOp = bop == "and" ? 1 : 2;
        q.resize(4);
    }
    if (q.size() != 4) return std::string("expected mma.sync.aligned.shape.row.col.dtype.atype.btype.ctype");
    f.d = meOf(q[0]), f.a = meOf(q[1]), f.b = meOf(q[2]), f.c = meOf(q[3]);
    const std::string shape = std::to_string(f.m) + "x" + std::to_string(f.n) + "x" + std::to_string(f.k);
    const bool f16 = f.a == ME::F16 || f.a == ME::BF16, integer = f.a == ME::S8 || f.a == ME::U8;
    const bool fp8 = f.a == ME::E4M3 || f.a == ME::E5M2, int4 = f.a == ME::S4 || f.a == ME::U4;
    if (f.bitOp && f.a != ME::B1) return std::string(".and.popc / .xor.popc are for the .b1 mma");
    const uint32_t k = sparse ? f.k / 2u : f.k; // .sp: A's stored K (the dense form of that K's A fragment)
    bool ok = false;
    if (f.m == 16 && f.n == 8 && (k == 16 || k == 8) && f16 && f.b == f.a)
        ok = (f.d == ME::F32 && f.c == ME::F32) || (f.a == ME::F16 && f.d == ME::F16 && f.c == ME::F16);
    else if (f.m == 16 && f.n == 8 && (k == 8 || k == 4) && f.a == ME::TF32)
        ok = f.b == ME::TF32 && f.d == ME::F32 && f.c == ME::F32;
    else if (f.m == 16 && f.n == 8 && (k == 32 || k == 16) && integer)
        ok = (f.b == ME::S8 || f.b == ME::U8) && f.d == ME::S32 && f.c == ME::S32;
    else if (f.m == 8 && f.n == 8 && f.k == 4 && f.a == ME::F64 && !sparse)
        ok = f.b == ME::F64 && f.c == ME::F64 && f.d == ME::F64;
    else if (f.n == 8 && !sparse && (f.m == 16 ? f.k == 32 || f.k == 64 : f.m == 8 && f.k == 32) && int4)
        ok = (f.b == ME::S4 || f.b == ME::U4) && f.d == ME::S32 && f.c == ME::S32; // m16n8k32/k64, m8n8k32
    else if (f.m == 8 && f.n == 8 && f.k == 16 && integer && !sparse)
        ok = (f.b == ME::S8 || f.b == ME::U8) && f.d == ME::S32 && f.c == ME::S32;
    else if (f.n == 8 && !sparse && (f.m == 16 ? f.k == 128 || f.k == 256 : f.m == 8 && f.k == 128) &&
             f.a == ME::B1)
        ok = f.b == ME::B1 && f.d == ME::S32 && f.c == ME::S32 && f.bitOp != 0 && !f.satfinite;
    else if (f.m == 16 && f.n == 8 && (f.k == 32 || f.k == 16) && fp8 && !sparse) // d = c (§9.7.14.5.14)
        ok = (f.b == ME::E4M3 || f.b == ME::E5M2) && f.d == f.c && (f.d == ME::F32 || f.d == ME::F16);
    else if (f.m == 16 && f.n == 8 && f.k == 64 && fp8 && sparse) // m16n8k64 .e4m3/.e5m2, f32 only
        ok = (f.b == ME::E4M3 || f.b == ME::E5M2) && f.d == ME::F32 && f.c == ME::F32;
    if (!ok)
        return std::string(sparse ? "mma.sp" : "mma.sync") + " m" + shape + "." + q[0] + "." + q[1] + "." +
               q[2] + "." + q[3] +
               (sparse ? " is not modelled by the executor yet (it runs "
                       : " is not a form the executor models (") +
               (sparse ? "m16n8k32/k16 f16/bf16, m16n8k16/k8 tf32, m16n8k64/k32 s8/u8, m16n8k64 e4m3/e5m2"
                       : "m16n8k16/k8 f16/bf16, m16n8k8/k4 tf32, m16n8k32/k16 s8/u8 and e4m3/e5m2, "
                         "m16n8k64/k32 s4/u4, m16n8k256/k128 b1, m8n8k16 s8/u8, m8n8k32 s4/u4, m8n8k128 b1, "
                         "m8n8k4 f64") +
               ")";
    if (f.satfinite && !integer && !int4) return std::string(".satfinite is for the integer mma");
    if (auto err = operands(rest, s, op, sparse ? 6 : 4)) return err;
    if (sparse) {
        // The selector: one thread of each quad holds the metadata when a row has 4 chunks, a pair
        // (0: T0 T1, 1: T2 T3) with 8, all four with 16 (§9.7.14.6.1); other values are undefined.
        const uint32_t chunks = f.k / (f.a == ME::TF32 ? 2u : 4u); // chunks of metadata per row of A
        const int64_t maxSel = chunks == 4 ? 3 : chunks == 8 ? 1 : 0;
        if (op.o[5].kind != OK::Imm || op.o[5].imm < 0 || op.o[5].imm > maxSel)
            return "the sparsity selector of this shape is the constant 0" +
                   std::string(maxSel == 3   ? "..3"
                               : maxSel == 1 ? " or 1"
                                             : "") +
                   "; other values are undefined (PTX ISA §9.7.14.6.1)";
        if (op.o[4].kind != OK::Reg)
            return std::string("the metadata e is a 32-bit register (PTX ISA §9.7.14.6.3)");
        f.sparse = true, f.spSel = uint8_t(op.o[5].imm), f.spOrdered = p[1] != "sp";
        op.o.pop_back(); // the selector lives in the form; the metadata stays at o[4]
    }
    static const char* kRole[] = {"d", "a", "b", "c"};
    for (int i = 0; i < 4;
         ++i) { // registers per operand: its fragment's elements packed into .b32 (f64: .b64)
        const char which = "DABC"[i];
        const uint32_t bits = meBits(which == 'A' ? f.a : which == 'B' ? f.b : which == 'C' ? f.c : f.d);
        const uint32_t n = fragCount(f, which) / (which == 'A' && sparse ? 2 : 1);
        const uint32_t regs = bits >= 32 ? n : n * bits / 32;
        if ((op.o[size_t(i)].kind != OK::Vec && regs != 1) || vecLen(op.o[size_t(i)]) != regs)
            return std::string(kRole[i]) + " of this " + (sparse ? "mma.sp" : "mma.sync") +
                   " form is a vector of " + std::to_string(regs) + " registers (§9.7.14.5.8, §9.7.14.6.2)";
    }
    op.opc = Opc::MmaSync;
    return std::nullopt;
}

} // namespace

bool isMatrixOpcode(const std::vector<std::string>& parts) {
    const std::string& p0 = parts[0];
    if (p0 == "cp") // cp.async (sm_80) here; cp.async.bulk* are the TMA / bulk copies (decode_async.cpp)
        return parts.size() > 2 && parts[1] == "async" && parts[2] != "bulk";
    return p0 == "wgmma" || p0 == "ldmatrix" || p0 == "stmatrix" || p0 == "movmatrix" || p0 == "mma";
}

std::optional<std::string> decodeMatrix(const std::vector<std::string>& parts, const std::string& rest,
                                        DecodeScope& s, Op& op) {
    MmaForm f;
    std::optional<std::string> err;
    if (parts[0] == "cp")
        err = cpAsync(parts, rest, s, op, f);
    else if (parts[0] == "wgmma")
        err = wgmma(parts, rest, s, op, f);
    else if (parts[0] == "mma")
        err = mmaSync(parts, rest, s, op, f);
    else
        err = ldst(parts, rest, s, op, f);
    if (err) return err;
    op.form = int(s.prog->mmaForms.size());
    s.prog->mmaForms.push_back(f);
    return std::nullopt;
}

} // namespace layoutscope::exec
