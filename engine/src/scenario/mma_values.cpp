// The tcgen05.mma accumulator against the product of the global tiles (mma_values.hpp, issue 24 item 4).
// PTX ISA 9.2 §9.7.16.10.9 (D = A x B + D), §9.7.16.10.4.1 (D element placement), instruction descriptor
// formats as umma.hpp decodes them.
#include "scenario/mma_values.hpp"

#include "layoutscope/core/number_formats.hpp"
#include "layoutscope/tcgen05/umma.hpp"
#include "layoutscope/tcgen05/umma_ws_sp.hpp"
#include "scenario/consumer_operands.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace layoutscope::scn {
namespace {

// The value of the global element at `c` of the tile `r` brought in, decoded by the tensor map's type (8-bit:
// by the descriptor's signedness `t`); nullopt: a type the check does not model.
std::optional<double> globalValue(const ResolvedOperand& r, std::array<int64_t, 2> c, UmmaType t,
                                  const GlobalMemory& g) {
    const TensorMapTiledParams& p = r.p.op->map.p;
    if (c[0] < 0 || c[1] < 0 || uint64_t(c[0]) >= p.globalDim[0] || uint64_t(c[1]) >= p.globalDim[1])
        return p.oobFill == TensorOobFill::NONE ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    const uint32_t eb = elementBits(p.dataType) / 8;
    const uint64_t addr = p.globalAddress + uint64_t(c[0]) * eb + uint64_t(c[1]) * p.globalStrides[0];
    if (!g.isMapped(addr, eb)) return std::nullopt;
    uint32_t raw = 0;
    for (uint32_t b = 0; b < eb && b < 4; ++b) raw |= uint32_t(g.readByte(addr + b)) << (8 * b);
    switch (p.dataType) {
    case TensorDataType::FLOAT16:
        return decodeF16(uint16_t(raw));
    case TensorDataType::BFLOAT16:
        return decodeBf16(uint16_t(raw));
    case TensorDataType::FLOAT32:
    case TensorDataType::FLOAT32_FTZ:
        return decodeF32(raw);
    case TensorDataType::TFLOAT32:
    case TensorDataType::TFLOAT32_FTZ:
        return decodeTf32(raw);
    case TensorDataType::UINT8:
        return t == UmmaType::S8 ? double(int8_t(uint8_t(raw))) : double(uint8_t(raw));
    default:
        return std::nullopt;
    }
}

double cellValue(UmmaType d, uint32_t raw) {
    if (d == UmmaType::S32) return double(int32_t(raw));
    if (d == UmmaType::F16) return decodeF16(uint16_t(raw));
    return decodeF32(raw);
}

// What the accumulator type makes of the exact reference (s32 wraps or saturates; floats are compared with
// the tolerance instead).
double asAccumulator(const UmmaOp& op, double v) {
    if (op.d != UmmaType::S32 || !std::isfinite(v)) return v;
    const int64_t x = int64_t(std::llround(v));
    const int64_t lo = std::numeric_limits<int32_t>::min(), hi = std::numeric_limits<int32_t>::max();
    if (op.saturate) return double(x < lo ? lo : x > hi ? hi : x);
    return double(int32_t(uint32_t(uint64_t(x))));
}

const char* tensorTypeName(TensorDataType t) {
    switch (t) {
    case TensorDataType::FLOAT16:
        return "FLOAT16";
    case TensorDataType::BFLOAT16:
        return "BFLOAT16";
    default:
        return nullptr;
    }
}

} // namespace

std::string valueText(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.7g", v);
    return buf;
}

std::optional<std::vector<double>> tileValues(const ResolvedOperand& r, uint32_t rows, uint32_t K, UmmaType t,
                                              bool negate, const GlobalMemory& g) {
    std::vector<double> v(size_t(rows) * K);
    for (uint32_t i = 0; i < rows; ++i)
        for (uint32_t k = 0; k < K; ++k) {
            const std::array<int64_t, 2> c = r.mnAlongDim0
                                                 ? std::array<int64_t, 2>{r.origin[0] + i, r.origin[1] + k}
                                                 : std::array<int64_t, 2>{r.origin[0] + k, r.origin[1] + i};
            const std::optional<double> x = globalValue(r, c, t, g);
            if (!x) return std::nullopt;
            v[size_t(i) * K + k] = negate ? -*x : *x;
        }
    return v;
}

MmaDCheck MmaValueCheck::check(const Scenario& s, size_t instrIndex, const Trace& t, ProducerIndex& index,
                               const GlobalMemory& g, const TmemState& tmem,
                               std::vector<Diagnostic>* findings) {
    MmaDCheck out;
    out.instr = instrIndex;
    const ScenarioInstr& in = s.instrs[instrIndex];
    if (!in.umma) return out;
    const UmmaOp& op = in.umma->op;
    out.cta = in.cta;
    const std::pair<uint32_t, uint32_t> key{in.cta, op.dTaddr};
    auto skip = [&](std::string why) {
        m_ref.erase(key); // what the accumulator holds is no longer known
        out.skipped = std::move(why);
        return out;
    };
    if (op.ctaGroup != 1) return skip(".cta_group::2 accumulators are not value-checked");
    if (op.aFromTmem) return skip("A from Tensor Memory is not value-checked");
    if (op.kind != UmmaKind::F16 && op.kind != UmmaKind::Tf32 && op.kind != UmmaKind::I8)
        return skip(std::string(ummaKindName(op.kind)) + " is not value-checked");
    if (op.ws && (op.collector.op == UmmaCollectorOp::Use || op.collector.op == UmmaCollectorOp::Lastuse))
        return skip("B from a .ws collector buffer is not value-checked");
    Result<UmmaZeroColumns> zc = op.hasZeroColumnMask ? ummaZeroColumnMask(op.m, op.n, op.zeroColumnMask)
                                                      : Result<UmmaZeroColumns>(UmmaZeroColumns{});
    if (!zc || zc->shift != 0)
        return skip("a column-shifted B (zero-column mask shift) is not value-checked");
    const std::vector<OperandSpec> specs = consumerOperandSpecs(s, instrIndex);
    if (specs.size() != 2) return skip("the operands are not two descriptor reads");
    std::array<ResolvedOperand, 2> r;
    for (size_t o = 0; o < 2; ++o) {
        std::string why;
        auto x = resolveOperand(s, instrIndex, specs[o], t, index, &why);
        if (!x) return skip("operand " + std::string(o ? "B" : "A") + ": " + why);
        r[o] = std::move(*x);
    }
    // K: the logical K; A's tile holds kA values a row (.sp: the K / 2 stored values, expanded below).
    const uint32_t M = op.m, N = op.n, K = ummaK(op), kA = op.sparse ? K / 2 : K;
    // The operand tiles as values: row i, k -> the global element the operand check expects there.
    std::array<std::vector<double>, 2> v;
    for (size_t o = 0; o < 2; ++o) {
        auto x = tileValues(r[o], o ? N : M, o ? K : kA, o ? op.b : op.a, o ? op.negB : op.negA, g);
        if (!x) return skip("tensor " + r[o].tensor + "'s element type is not value-checked");
        v[o] = std::move(*x);
    }
    if (op.sparse) { // the dense A: the tile's stored values placed by the metadata in Tensor Memory now
        const TmemAddr e = decodeTmemAddress(op.spMetaTaddr);
        Result<std::vector<double>> full = ummaExpandSparseA(
            op, v[0], [&](uint32_t, uint32_t lane, uint32_t column) -> std::optional<uint32_t> {
                if (!TensorMemory::inRange(e.lane + lane, e.column + column)) return std::nullopt;
                return tmem.ctas[in.cta].cell(e.lane + lane, e.column + column);
            });
        if (!full) return skip("the sparsity metadata: " + full.error().message);
        v[0] = std::move(*full);
    }
    for (uint32_t n = 0; n < zc->zero.size(); ++n) // .ws zero-column mask: those columns of B are zeros
        if (zc->zero[n]) std::fill(v[1].begin() + size_t(n) * K, v[1].begin() + size_t(n + 1) * K, 0.0);
    std::vector<double> sum(size_t(M) * N, 0.0), sumAbs(size_t(M) * N, 0.0);
    if (op.enableInputD) {
        auto it = m_ref.find(key);
        if (it == m_ref.end() || it->second.first.size() != sum.size())
            return skip("enable-input-d accumulates into a D no checked MMA wrote before");
        sum = it->second.first;
        sumAbs = it->second.second;
    }
    for (uint32_t m = 0; m < M; ++m)
        for (uint32_t n = 0; n < N; ++n) {
            double acc = 0, abs = 0;
            for (uint32_t k = 0; k < K; ++k) {
                const double p = v[0][size_t(m) * K + k] * v[1][size_t(n) * K + k];
                acc += p;
                abs += std::fabs(p);
            }
            sum[size_t(m) * N + n] += acc;
            sumAbs[size_t(m) * N + n] += abs;
        }
    const UmmaDShape shape = ummaDShape(op);
    const uint32_t lane0 = op.dTaddr >> 16, col0 = op.dTaddr & 0xFFFF;
    const double rel = op.d == UmmaType::F16 ? std::ldexp(1.0, -9) : std::ldexp(1.0, -20);
    out.cells.reserve(sum.size());
    for (uint32_t m = 0; m < M; ++m)
        for (uint32_t n = 0; n < N; ++n) {
            const UmmaDCell c = ummaDCell(shape, m, n);
            MmaDValue x;
            x.m = m;
            x.n = n;
            x.lane = lane0 + c.lane;
            x.column = col0 + c.column;
            const size_t i = size_t(m) * N + n;
            x.expected = asAccumulator(op, sum[i]);
            x.actual = cellValue(op.d, tmem.ctas[in.cta].cell(x.lane, x.column));
            x.tolerance = op.d == UmmaType::S32 ? 0.0 : rel * (sumAbs[i] + std::fabs(sum[i]));
            out.wrong += !x.ok() && !(std::isnan(x.expected) && std::isnan(x.actual));
            out.cells.push_back(x);
        }
    m_ref[key] = {std::move(sum), std::move(sumAbs)};
    if (out.wrong == 0 || !findings) return out;
    std::string msg =
        "tcgen05.mma: D differs from the product of the tiles it reads in " + std::to_string(out.wrong) +
        " of " + std::to_string(out.cells.size()) + " elements (" +
        (op.d == UmmaType::S32 ? std::string("exact for s32")
                               : "tolerance " + std::string(op.d == UmmaType::F16 ? "2^-9" : "2^-20") +
                                     " x (sum |a*b| + |D|)") +
        "): ";
    size_t shown = 0;
    for (const MmaDValue& x : out.cells) {
        if (x.ok() || shown == 3) continue;
        msg += (shown++ ? "; " : "") + std::string("D[m=") + std::to_string(x.m) +
               "][n=" + std::to_string(x.n) + "] (lane " + std::to_string(x.lane) + ", column " +
               std::to_string(x.column) + ") holds " + valueText(x.actual) + ", the product of " +
               r[0].tensor + " and " + r[1].tensor + " gives " + valueText(x.expected);
    }
    // The likely cause: the instruction descriptor reads a 16-bit tensor as the other 16-bit float type
    // (kind::f16 needs A and B of one type, so a mix-up usually names both).
    std::array<bool, 2> mixed{};
    for (size_t o = 0; o < 2; ++o) {
        const TensorDataType dt = r[o].p.op->map.p.dataType;
        const UmmaType ty = o ? op.b : op.a;
        mixed[o] = (dt == TensorDataType::FLOAT16 && ty == UmmaType::Bf16) ||
                   (dt == TensorDataType::BFLOAT16 && ty == UmmaType::F16);
    }
    std::string fix;
    if (mixed[0] || mixed[1]) {
        const size_t o = mixed[0] ? 0 : 1;
        const TensorDataType dt = r[o].p.op->map.p.dataType;
        const bool both = mixed[0] && mixed[1];
        fix = std::string(". Fix: the instruction descriptor reads ") + (o ? "B" : "A") + " as " +
              ummaTypeName(o ? op.b : op.a) + " but tensor " + r[o].tensor + " holds " + tensorTypeName(dt) +
              (both ? " (and B likewise)" : "") + ": set idesc bits " +
              (both ? "[7,10) and [10,13) (A and B formats)"
               : o  ? "[10,13) (B format)"
                    : "[7,10) (A format)") +
              " to " + (dt == TensorDataType::FLOAT16 ? "0 (f16)" : "1 (bf16)");
    }
    findings->push_back(Diagnostic{
        Severity::Error, DiagCode::InvalidValue, in.span, msg + fix,
        "PTX ISA 9.2 §9.7.16.10.9 (tcgen05.mma), §9.7.16.4.2 (instruction descriptor)", Provenance::PtxText});
    return out;
}

} // namespace layoutscope::scn

namespace layoutscope {

std::vector<MmaDCheck> mmaDValues(const Scenario& s, const Run& run) {
    // Replays the checks over the recorded trace; each accumulator's last MMA is compared with the final
    // Tensor Memory (exact while no later instruction wrote those cells).
    std::vector<MmaDCheck> out;
    scn::ProducerIndex index;
    scn::MmaValueCheck check;
    std::map<std::pair<uint32_t, uint32_t>, size_t> last;
    for (size_t i = 0; i < s.instrs.size() && i < run.trace.instrs.size(); ++i)
        if (s.instrs[i].umma) last[{s.instrs[i].cta, s.instrs[i].umma->op.dTaddr}] = i;
    for (size_t i = 0; i < s.instrs.size() && i < run.trace.instrs.size(); ++i) {
        if (!s.instrs[i].umma) continue;
        MmaDCheck c = check.check(s, i, run.trace, index, run.final.global, run.tmemFinal, nullptr);
        if (last[{s.instrs[i].cta, s.instrs[i].umma->op.dTaddr}] == i) out.push_back(std::move(c));
    }
    return out;
}

} // namespace layoutscope
