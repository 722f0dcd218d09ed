// Producer/consumer check of a descriptor consumer in a scenario (issue 12): tcgen05.cp, wgmma and
// tcgen05.mma operands read the tile a TMA load wrote through a shared-memory descriptor. Without a
// stated expectation the consumer is inferred from the producer: operand row m is the box's dimension 1
// and K its dimension 0, starting at the element the TMA placed at the descriptor's start address. Every
// read that sees another element is counted; the first few are named, and plausible descriptor fixes are
// searched for one that makes the two agree. The operand specs, the producer resolution and the per-read
// comparison (compareRead) are shared with operandGrid (operand_grid.cpp, the GUI's operand view)
// through consumer_operands.hpp, so the grid's mismatches are exactly the reads this check counts. The
// operand specs themselves are built in consumer_specs.cpp.
#include "layoutscope/analysis/consumer.hpp"
#include "layoutscope/core/coord_text.hpp"
#include "layoutscope/tma/tma.hpp"
#include "scenario/consumer_operands.hpp"

#include <algorithm>
#include <functional>
#include <unordered_map>

namespace layoutscope::scn {
namespace {

/// "(x=0, y=1)": dimension 0 first, labelled (core/coord_text.hpp).
std::string coordText(const std::array<int64_t, 2>& c) {
    return elementCoordText(c);
}

const char* shortSwizzle(uint32_t layoutType) {
    switch (layoutType) {
    case 0:
        return "none";
    case 1:
        return "128B_base32B";
    case 2:
        return "128B";
    case 4:
        return "64B";
    case 6:
        return "32B";
    }
    return "?";
}

std::string descText(const std::string& name, const SmemDescriptor& d) {
    return "desc " + name + " ... lbo=" + std::to_string(d.lbo) + " sbo=" + std::to_string(d.sbo) +
           " swizzle=" + shortSwizzle(d.layoutType) +
           (d.baseOffset ? " base=" + std::to_string(d.baseOffset) : "");
}

std::string hexText(uint32_t v) {
    static const char* digits = "0123456789abcdef";
    std::string h;
    do {
        h.insert(h.begin(), digits[v & 15]);
        v >>= 4;
    } while (v);
    return "0x" + h;
}

// The repeat of a swizzle pattern (1024 B for 128B, 512 for 64B and 128B_base32B, 256 for 32B; 0: none).
uint32_t swizzleRepeat(uint32_t layoutType) {
    const CuteSwizzle sw = swizzleOfLayoutType(layoutType);
    return sw.b == 0 ? 0 : 1u << (sw.m + sw.s + sw.b);
}

// The buffer that holds `addr` in CTA `cta`, by name ("the buffer" when none is declared there).
std::string bufferAt(const Scenario& s, uint32_t cta, uint32_t addr) {
    for (const ScenarioBuffer& b : s.buffers)
        if (b.cta == cta && addr >= b.addr && addr - b.addr < b.size) return b.name;
    return "the buffer";
}

} // namespace

namespace {

// The check shared by every descriptor consumer: infer the expected tile from the TMA load behind the
// descriptor's start, compare every read, and search for the fix.
void checkOperand(const Scenario& s, size_t instrIndex, const OperandSpec& op, const Trace& t,
                  ProducerIndex& index, std::vector<Diagnostic>& findings) {
    const ScenarioInstr& in = s.instrs[instrIndex];
    const SmemDescriptor& d = op.desc;
    const std::optional<ResolvedOperand> r = resolveOperand(s, instrIndex, op, t, index);
    if (!r) return; // no TMA tile behind the descriptor, or no moves to compare
    const Producer* p = &r->p;
    const TmaTileLoad& ld = *p->op;
    const uint32_t eb = p->g.elemBytes;
    const std::array<int64_t, 2> origin = r->origin;
    const uint32_t cta = op.cta;
    const ProducerLookup lookup = [&](uint32_t addr) { return index.at(cta, addr); };
    const std::string& tensor = r->tensor;
    const bool mnAlongDim0 = r->mnAlongDim0;
    const std::string stated = r->rolesKnown ? " (" + r->rolesNote + ")" : std::string();
    if (r->wrongTensor) {
        findings.push_back(Diagnostic{
            Severity::Error, DiagCode::InvalidValue, in.span,
            op.what + " reads " + tensor + "'s tile (TMA load at line " +
                std::to_string(s.instrs[p->index].span.line) + ") but line " +
                std::to_string(op.expect->span.line) + " states it reads " + op.expect->tensor +
                ": the descriptor " + op.descName + " starts in the wrong buffer",
            std::string("PTX ISA 9.2 §9.7.15.5.1 (wgmma matrix descriptors)"), Provenance::PtxText});
        return;
    }
    const ConsumerCheck c = checkReads(op.reads(d, op.mnMajor), lookup, origin, eb, 4, mnAlongDim0);
    // A swizzled tile whose buffer is off the pattern's repeat: the descriptor's base offset matters.
    const uint32_t repeat = swizzleRepeat(d.layoutType);
    const bool offRepeat = repeat != 0 && ld.dstAddr % repeat != 0;
    const std::string buf = bufferAt(s, cta, ld.dstAddr);
    const std::string align = offRepeat ? "align " + buf + " to " + std::to_string(repeat) + " B (smem " +
                                              buf + " ... align=" + std::to_string(repeat) + ")"
                                        : std::string();
    const char* boRef = "PTX ISA 9.2 §9.7.15.5.1.2.1 (matrix descriptor base offset); open-questions.md 22";
    if (c.mismatched == 0) {
        if (offRepeat && op.what != "tcgen05.cp")
            findings.push_back(Diagnostic{
                Severity::Warning, DiagCode::InvalidValue, in.span,
                op.what + " reads " + tensor + "'s " + cudaName(ld.map.p.swizzle) + " tile in " + buf +
                    " at " + hexText(ld.dstAddr) + ", which is not " + std::to_string(repeat) +
                    "-B aligned (the pattern's repeat): the reads agree because TMA and the descriptor both "
                    "swizzle absolute address bits with base offset " +
                    std::to_string(d.baseOffset) +
                    " (measured on Hopper wgmma for every base offset; unverified for tcgen05: open question "
                    "22). Fix: " +
                    align + ", so no base offset is involved",
                boRef, Provenance::Assumption});
        if (op.k != 0) checkKBlockStep(s, instrIndex, op, *r, index, findings);
        return;
    }
    std::string msg = op.what + " reads " + std::to_string(c.mismatched) + " of " + std::to_string(c.reads) +
                      (op.what == "tcgen05.cp" ? " 16-byte chunks" : " elements") +
                      " that hold other elements than the tile it reads: the TMA load at line " +
                      std::to_string(s.instrs[p->index].span.line) + " wrote " + tensor + " with " +
                      cudaName(ld.map.p.swizzle) + ", the descriptor " + op.descName + " reads it as " +
                      smemLayoutTypeName(d.layoutType) + " with lbo=" + std::to_string(d.lbo) +
                      " sbo=" + std::to_string(d.sbo) +
                      (d.baseOffset ? " base offset " + std::to_string(d.baseOffset) : std::string()) +
                      (op.transName.empty() ? ""
                       : op.mnMajor         ? ", MN-major"
                                            : ", K-major") +
                      stated + ". ";
    for (size_t i = 0; i < c.first.size(); ++i) {
        const ReadMismatch& r = c.first[i];
        msg += (i ? "; " : "") + tensor + "[" + op.tensorIx + "=" + std::to_string(op.rowBase + r.m) +
               "][k=" + std::to_string(r.k) + "]: expected global " + coordText(r.expected) + ", reads " +
               (r.actual ? coordText(*r.actual) : std::string("bytes no TMA load wrote"));
    }
    // The diagnosis: the first plausible change that makes every read agree.
    struct Try {
        std::string label;
        SmemDescriptor d;
        bool mn;
    };
    std::vector<Try> tries;
    if (d.layoutType != 0 && (d.baseOffset != 0 || offRepeat))
        for (uint32_t v = 0; v < 8; ++v)
            if (v != d.baseOffset) {
                SmemDescriptor x = d;
                x.baseOffset = v;
                tries.push_back(
                    {"set the descriptor's base offset to " + std::to_string(v) +
                         (v == 0 ? " (TMA swizzles absolute address bits; base 0 reads them so)" : "") +
                         (offRepeat ? ", or " + align : std::string()),
                     x, op.mnMajor});
            }
    if (!op.transName.empty())
        tries.push_back(
            {"set " + op.transName + " to " + (op.mnMajor ? "0 (K-major)" : "1 (MN-major)"), d, !op.mnMajor});
    for (uint32_t lt : {2u, 4u, 6u, 0u, 1u})
        if (lt != d.layoutType) {
            SmemDescriptor x = d;
            x.layoutType = lt;
            tries.push_back(
                {std::string("set the descriptor's layout type to ") + shortSwizzle(lt), x, op.mnMajor});
        }
    if (d.lbo != d.sbo) {
        SmemDescriptor x = d;
        std::swap(x.lbo, x.sbo);
        tries.push_back({"swap lbo and sbo", x, op.mnMajor});
    }
    for (uint32_t v = 16; v <= 8192; v *= 2)
        for (int field = 0; field < 2; ++field) {
            SmemDescriptor x = d;
            (field ? x.lbo : x.sbo) = v;
            if (x == d) continue;
            tries.push_back(
                {std::string(field ? "set lbo=" : "set sbo=") + std::to_string(v), x, op.mnMajor});
            for (uint32_t lt : {2u, 4u, 6u, 0u})
                if (lt != d.layoutType) {
                    SmemDescriptor y = x;
                    y.layoutType = lt;
                    tries.push_back({std::string("set the layout type to ") + shortSwizzle(lt) + " and " +
                                         (field ? "lbo=" : "sbo=") + std::to_string(v),
                                     y, op.mnMajor});
                }
        }
    std::string fix;
    for (const Try& tr : tries) {
        if (!validateSmemDescriptor(tr.d)) continue;
        if (checkReads(op.reads(tr.d, tr.mn), lookup, origin, eb, 0, r->rolesKnown ? mnAlongDim0 : tr.mn)
                .mismatched == 0) {
            fix = " Fix: " + tr.label + ": " + descText(op.descName, tr.d) +
                  (op.transName.empty() ? "" : std::string(", ") + op.transName + " " + (tr.mn ? "1" : "0")) +
                  "." +
                  (tr.d.baseOffset != d.baseOffset ? " (how a non-zero base offset enters the swizzle: "
                                                     "measured on Hopper wgmma, unverified for tcgen05: "
                                                     "open question 22)"
                                                   : "");
            break;
        }
    }
    if (fix.empty())
        fix = " No single change of the descriptor (layout type, lbo, sbo) or major-ness makes them agree: "
              "check "
              "the box (its inner extent must cover the operand's K) and the start address.";
    const bool cp = op.what == "tcgen05.cp";
    const RuleInfo& ri = ruleInfo(cp ? RuleId::Tcgen05CpSourceWalk : RuleId::Tcgen05MmaCtaPair);
    if (op.pairHalf) // the split of a pair MMA is the engine's reading of the PTX text, not measured
        fix += " (unverified: that .cta_group::2 reads these rows from CTA " + std::to_string(op.cta) +
               "'s shared memory; rule: " + ri.name + ")";
    if (d.baseOffset != 0) { // what the reads are compared with rests on the base-offset model (oq 22)
        findings.push_back(Diagnostic{Severity::Error, DiagCode::InvalidValue, in.span, msg + "." + fix,
                                      boRef, Provenance::Assumption});
        return;
    }
    findings.push_back(
        Diagnostic{Severity::Error, DiagCode::InvalidValue, in.span, msg + "." + fix,
                   cp || op.pairHalf
                       ? std::string(cp ? "PTX ISA 9.2 §9.7.16.4.1 (shared memory descriptor); "
                                        : "PTX ISA 9.2 §9.7.16.10.9 (tcgen05.mma); ") +
                             ri.reference
                       : std::string("PTX ISA 9.2 §9.7.15.5.1 (wgmma matrix descriptors); measured on H100: "
                                     "tests/data/wgmma/h100_records.jsonl"),
                   cp || op.pairHalf ? ri.provenance : Provenance::HardwareSm90});
}

} // namespace

void checkCpConsumer(const Scenario& s, size_t instrIndex, const CpForm& f, uint64_t descValue,
                     const std::string& descName, const Trace& t, ProducerIndex& index,
                     std::vector<Diagnostic>& findings) {
    checkOperand(s, instrIndex, cpOperandSpec(s, instrIndex, f, descValue, descName), t, index, findings);
}

void checkWgmmaConsumer(const Scenario& s, size_t instrIndex, const Trace& t, ProducerIndex& index,
                        std::vector<Diagnostic>& findings) {
    for (const OperandSpec& op : wgmmaOperandSpecs(s, instrIndex))
        checkOperand(s, instrIndex, op, t, index, findings);
}

void checkUmmaConsumer(const Scenario& s, size_t instrIndex, const Trace& t, ProducerIndex& index,
                       std::vector<Diagnostic>& findings) {
    for (const OperandSpec& op : ummaOperandSpecs(s, instrIndex))
        checkOperand(s, instrIndex, op, t, index, findings);
}

void ProducerIndex::advance(const Scenario& s, const Trace& t, uint64_t end) {
    end = std::min<uint64_t>(end, t.moves.size());
    for (; m_done < end; ++m_done) { // each move is read once over the whole run
        const ByteMove m = t.moves[m_done];
        if (m.dst.space != MemSpace::SharedCta || m.dst.addr % 16 != 0) continue;
        const auto* ld = m.instr < s.instrs.size() && s.instrs[m.instr].kind == ScenarioInstrKind::Copy
                             ? std::get_if<TmaTileLoad>(&s.instrs[m.instr].op)
                             : nullptr;
        if (!ld || isSubByteType(ld->map.p.dataType) || ld->map.p.interleave != TensorInterleave::NONE)
            continue; // only tile loads the check understands; other writers leave the entry as it was
        const uint32_t eb = elementBits(ld->map.p.dataType) / 8;
        m_granules[uint64_t(m.dst.cta) << 32 | m.dst.addr] =
            ProducedByte{{m.coord[0], m.coord[1]}, eb, uint32_t(ld->map.p.swizzle)};
    }
}

const std::vector<size_t>& ProducerIndex::copiesBefore(const Scenario& s, size_t before) {
    for (const size_t end = std::min(before, s.instrs.size()); m_scanned < end; ++m_scanned)
        if (s.instrs[m_scanned].kind == ScenarioInstrKind::Copy) m_copies.push_back(m_scanned);
    return m_copies;
}

std::optional<ProducedByte> ProducerIndex::at(uint32_t cta, uint32_t addr) const {
    auto it = m_granules.find(uint64_t(cta) << 32 | (addr & ~15u)); // a TMA chunk: 16 bytes along dim 0
    if (it == m_granules.end()) return std::nullopt;
    ProducedByte b = it->second;
    b.coord[0] += (addr & 15u) / b.elemBytes;
    return b;
}

} // namespace layoutscope::scn
