// Resolving a consumer operand to what it is compared with (consumer_operands.hpp): the TMA tile load
// behind the descriptor's start, the element its (0, 0) should hold, and which way its indices run over
// the tile, taken from the data before the descriptor under test (issue 24: `expect`, the tensor's
// `roles=`, or the only way the box holds the operand).
#include "layoutscope/tma/tma.hpp"
#include "scenario/consumer_operands.hpp"

namespace layoutscope::scn {
namespace {

// The TMA tile load the check understands (byte type, no interleave, rank 2) that wrote `addr` last
// before instruction `before`, by its box footprint.
std::optional<Producer> producerAt(const Scenario& s, size_t before, uint32_t cta, uint32_t addr,
                                   ProducerIndex& index) {
    const std::vector<size_t>& copies = index.copiesBefore(s, before);
    for (size_t k = copies.size(); k-- > 0;) { // the latest copy first, as a scan back would meet them
        const size_t i = copies[k];
        if (i >= before) continue;
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

} // namespace

std::optional<ResolvedOperand> resolveOperand(const Scenario& s, size_t instrIndex, const OperandSpec& op,
                                              const Trace& t, ProducerIndex& index, std::string* why) {
    auto none = [why](const char* reason) {
        if (why) *why = reason;
        return std::nullopt;
    };
    const SmemDescriptor& d = op.desc;
    const std::optional<Producer> p = producerAt(s, instrIndex, op.cta, d.startAddress, index);
    if (!p) return none("no TMA tile load the check understands wrote the descriptor's start address");
    if (instrIndex >= t.instrs.size()) return none("the run stopped before this instruction");
    if (!t.instrs[instrIndex].traced) // summarised (the budget cut is monotone): no moves to compare
        return none("the instruction ran untraced (over the trace budget): no moves to compare");
    ResolvedOperand r;
    r.p = *p;
    const TmaTileLoad& ld = *p->op;
    const uint32_t eb = p->g.elemBytes;
    const uint32_t off = d.startAddress - ld.dstAddr; // where the descriptor starts in the box image
    r.origin = {ld.coords[0] + int64_t(off % p->g.rowPitch) / eb,
                ld.coords[1] + int64_t(off / p->g.rowPitch)};
    index.advance(s, t, t.instrs[instrIndex].firstMove); // the moves before this instruction
    r.tensor = "the tensor";
    for (const ScenarioTensorMap& m : s.tensorMaps)
        if (m.map.p.globalAddress == ld.map.p.globalAddress) r.tensor = m.name;
    // Which way the operand's indices run over the tile: stated (`expect`), else declared by the tensor
    // (`roles=`), else implied by the box (the only dimension that holds the operand's rows from the
    // origin while the other holds its K), else as the descriptor's major-ness says.
    r.mnAlongDim0 = op.mnMajor;
    r.wrongTensor = op.expect && op.expect->tensor != r.tensor;
    const ScenarioTensorMap* tm = nullptr;
    for (const ScenarioTensorMap& m : s.tensorMaps)
        if (m.map.p.globalAddress == ld.map.p.globalAddress) tm = &m;
    if (op.expect) {
        r.mnAlongDim0 = op.expect->mnDim == 0;
        r.rolesKnown = true;
        r.rolesNote = "stated at line " + std::to_string(op.expect->span.line) + ": " + op.tensorIx +
                      " along dim" + std::to_string(op.expect->mnDim) + ", k along dim" +
                      std::to_string(op.expect->kDim);
    } else if (tm && tm->roles.size() >= 2 && tm->roles.find('k') < 2 && op.k != 0) {
        const size_t kd = tm->roles.find('k');
        r.mnAlongDim0 = kd == 1;
        r.rolesKnown = true;
        r.rolesNote = "declared at line " + std::to_string(tm->span.line) + ": tensormap " + tm->name +
                      " roles=[" + std::string(1, tm->roles[0]) + "," + std::string(1, tm->roles[1]) +
                      "]: k along dim" + std::to_string(kd);
    } else if (op.k != 0 && op.rows != 0) {
        const std::array<int64_t, 2> box{ld.map.p.boxDim[0], ld.map.p.boxDim[1]};
        const std::array<int64_t, 2> room{box[0] - (r.origin[0] - ld.coords[0]),
                                          box[1] - (r.origin[1] - ld.coords[1])};
        auto fits = [&](int mnDim) { return room[mnDim] >= op.rows && room[1 - mnDim] >= op.k; };
        if (fits(0) != fits(1)) {
            const int mnDim = fits(0) ? 0 : 1;
            r.mnAlongDim0 = mnDim == 0;
            r.rolesKnown = true;
            r.rolesNote = "implied by the box [" + std::to_string(box[0]) + "," + std::to_string(box[1]) +
                          "]: only dim" + std::to_string(mnDim) + " holds the operand's " +
                          std::to_string(op.rows) + " rows of " + op.tensorIx + " and the other its " +
                          std::to_string(op.k) + " of k";
        }
    }
    return r;
}

} // namespace layoutscope::scn
