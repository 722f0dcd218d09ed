// Producer/consumer check of a tcgen05.cp in a scenario (issue 12): the tile a TMA load wrote, read
// through the cp's shared-memory descriptor. Without a stated expectation the consumer is inferred from
// the producer: operand row m is the box's dimension 1 and K its dimension 0, starting at the element the
// TMA placed at the descriptor's start address. Every 16-byte read that sees another element is counted;
// the first few are named, and plausible descriptor fixes are searched for one that makes the two agree.
#include "layoutscope/consumer.hpp"
#include "layoutscope/tma.hpp"
#include "scenario_parse.hpp"

#include <unordered_map>

namespace layoutscope::scn {
namespace {

constexpr size_t kMaxMovesScanned = 1u << 22; // bound the backward scan (linear time per check)

struct Producer {
    const TmaTileLoad* op = nullptr;
    size_t index = 0; ///< scenario instruction
    TileGeometry g;
};

// The TMA tile load the check understands (byte type, no interleave, rank 2) that wrote `addr` last
// before instruction `before`, by its box footprint.
std::optional<Producer> producerAt(const Scenario& s, size_t before, uint32_t cta, uint32_t addr) {
    for (size_t i = before; i-- > 0;) {
        const auto* ld =
            s.instrs[i].kind == ScenarioInstrKind::Copy ? std::get_if<TmaTileLoad>(&s.instrs[i].op) : nullptr;
        if (!ld || ld->multicast || ld->dstCta != cta) continue;
        const TileGeometry g = tileGeometry(ld->map);
        const uint64_t end = ld->dstAddr + uint64_t(g.rows) * g.rowPitch;
        if (addr < ld->dstAddr || addr >= end) continue;
        if (isSubByteType(ld->map.p.dataType) || ld->map.p.interleave != TensorInterleave::NONE ||
            ld->map.p.tensorRank != 2 || g.elemBytes == 0)
            return std::nullopt;
        return Producer{ld, i, g};
    }
    return std::nullopt;
}

// The global element every 16-byte granule of CTA `cta` holds, from the moves of earlier TMA loads.
std::unordered_map<uint32_t, ProducedByte> producedGranules(const Scenario& s, const Trace& t, size_t before,
                                                            uint32_t cta) {
    std::unordered_map<uint32_t, ProducedByte> out;
    const uint64_t end = before < t.instrs.size() ? t.instrs[before].firstMove : t.moves.size();
    size_t scanned = 0;
    for (uint64_t i = end; i-- > 0 && scanned < kMaxMovesScanned; ++scanned) {
        const ByteMove m = t.moves[i];
        if (m.dst.space != MemSpace::SharedCta || m.dst.cta != cta || m.dst.addr % 16 != 0) continue;
        const auto* ld = m.instr < s.instrs.size() && s.instrs[m.instr].kind == ScenarioInstrKind::Copy
                             ? std::get_if<TmaTileLoad>(&s.instrs[m.instr].op)
                             : nullptr;
        if (!ld || isSubByteType(ld->map.p.dataType) || ld->map.p.interleave != TensorInterleave::NONE)
            continue;
        const uint32_t eb = elementBits(ld->map.p.dataType) / 8;
        out.try_emplace(uint32_t(m.dst.addr),
                        ProducedByte{{m.coord[0], m.coord[1]}, eb, uint32_t(ld->map.p.swizzle)});
    }
    return out;
}

std::string coordText(const std::array<int64_t, 2>& c) {
    return "(" + std::to_string(c[0]) + "," + std::to_string(c[1]) + ")";
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
           " swizzle=" + shortSwizzle(d.layoutType);
}

} // namespace

void checkCpConsumer(const Scenario& s, size_t instrIndex, const CpForm& f, uint64_t descValue,
                     const std::string& descName, const Trace& t, std::vector<Diagnostic>& findings) {
    const ScenarioInstr& in = s.instrs[instrIndex];
    const SmemDescriptor d = decodeSmemDescriptor(descValue);
    const uint32_t cta = f.ctaGroup == 2 ? in.cta & ~1u : in.cta; // the pair's even CTA stands for both
    const uint32_t start = d.startAddress;
    const std::optional<Producer> p = producerAt(s, instrIndex, cta, start);
    if (!p || instrIndex >= t.instrs.size()) return; // no TMA tile behind the descriptor: nothing to infer
    for (size_t i = p->index; i < instrIndex; ++i)
        if (!t.instrs[i].traced) return; // the trace was summarised: no moves to compare
    const TmaTileLoad& ld = *p->op;
    const uint32_t eb = p->g.elemBytes;
    const uint32_t off = start - ld.dstAddr; // where the descriptor starts in the box image (unswizzled)
    const std::array<int64_t, 2> origin{ld.coords[0] + int64_t(off % p->g.rowPitch) / eb,
                                        ld.coords[1] + int64_t(off / p->g.rowPitch)};
    const auto granules = producedGranules(s, t, instrIndex, cta);
    const ProducerLookup lookup = [&](uint32_t addr) -> std::optional<ProducedByte> {
        auto it = granules.find(addr);
        if (it == granules.end()) return std::nullopt;
        return it->second;
    };
    const ConsumerCheck c = checkReads(tcgen05CpReads(f.shape, d), lookup, origin, eb);
    if (c.mismatched == 0) return;

    std::string tensor = "the tensor";
    for (const ScenarioTensorMap& m : s.tensorMaps)
        if (m.map.p.globalAddress == ld.map.p.globalAddress) tensor = m.name;
    const std::string written = cudaName(ld.map.p.swizzle);
    std::string msg =
        "tcgen05.cp reads " + std::to_string(c.mismatched) + " of " + std::to_string(c.reads) +
        " 16-byte chunks that hold other elements than the tile it reads: the TMA load at line " +
        std::to_string(s.instrs[p->index].span.line) + " wrote " + tensor + " with " + written +
        ", the descriptor " + descName + " reads it as " + smemLayoutTypeName(d.layoutType) +
        " with lbo=" + std::to_string(d.lbo) + " sbo=" + std::to_string(d.sbo) + ". ";
    for (size_t i = 0; i < c.first.size(); ++i) {
        const ReadMismatch& r = c.first[i];
        msg += (i ? "; " : "") + tensor + "[m=" + std::to_string(r.m) + "][k=" + std::to_string(r.k) +
               "]: expected global " + coordText(r.expected) + ", reads " +
               (r.actual ? coordText(*r.actual) : std::string("bytes no TMA load wrote"));
    }
    // The diagnosis: the first plausible descriptor that makes every read agree.
    std::vector<std::pair<std::string, SmemDescriptor>> tries;
    for (uint32_t lt : {2u, 4u, 6u, 0u, 1u})
        if (lt != d.layoutType) {
            SmemDescriptor x = d;
            x.layoutType = lt;
            tries.push_back({std::string("set the descriptor's layout type to ") + shortSwizzle(lt), x});
        }
    if (d.lbo != d.sbo) {
        SmemDescriptor x = d;
        std::swap(x.lbo, x.sbo);
        tries.push_back({"swap lbo and sbo", x});
    }
    for (uint32_t sbo = 16; sbo <= 8192; sbo *= 2)
        if (sbo != d.sbo) {
            SmemDescriptor x = d;
            x.sbo = sbo;
            tries.push_back({"set sbo=" + std::to_string(sbo), x});
            for (uint32_t lt : {2u, 4u, 6u, 0u})
                if (lt != d.layoutType) {
                    SmemDescriptor y = x;
                    y.layoutType = lt;
                    tries.push_back({std::string("set the layout type to ") + shortSwizzle(lt) +
                                         " and sbo=" + std::to_string(sbo),
                                     y});
                }
        }
    std::string fix;
    for (const auto& [label, x] : tries) {
        if (!validateSmemDescriptor(x)) continue;
        if (checkReads(tcgen05CpReads(f.shape, x), lookup, origin, eb, 0).mismatched == 0) {
            fix = " Fix: " + label + ": " + descText(descName, x) + ".";
            break;
        }
    }
    if (fix.empty()) fix = " No single descriptor change (layout type, lbo/sbo) makes them agree.";
    const RuleInfo& ri = ruleInfo(RuleId::Tcgen05CpSourceWalk);
    findings.push_back(Diagnostic{
        Severity::Error, DiagCode::InvalidValue, in.span, msg + "." + fix,
        std::string("PTX ISA 9.2 §9.7.16.4.1 (shared memory descriptor); ") + ri.reference, ri.provenance});
}

} // namespace layoutscope::scn
