// Decoding of the asynchronous and cluster forms (decode_async.hpp): mbarrier.* (PTX ISA 9.2 §9.7.13.15),
// elect.sync (§9.7.13.11), mapa (§9.7.9.16), barrier.cluster (§9.7.13.3), fence / membar (§9.7.13.4),
// cp.async.bulk[.tensor] / cp.reduce.async.bulk[.tensor] / cp.async.bulk.prefetch[.tensor] and the bulk
// async-groups (§9.7.9.25). Memory-ordering qualifiers (.release .acquire .relaxed, scopes, .aligned)
// have no data effect in the executor's sequentially consistent memory; the order model reads the forms.
#include "exec/decode_async.hpp"
#include "exec/decode.hpp"

#include <algorithm>

namespace layoutscope::exec {

namespace {

constexpr const char* kModes =
    ".tile, .im2col, .im2col::w, .im2col::w::128, .im2col_no_offs, .tile::gather4, "
    ".tile::scatter4; PTX ISA 9.2 §9.7.9.25.5";

bool ordering(const std::string& m) {
    static const char* kNames[] = {"sync",    "aligned", "release", "acquire",    "relaxed",
                                   "acq_rel", "sc",      "cta",     "cluster",    "gpu",
                                   "sys",     "b64",     "shared",  "shared::cta"};
    return std::any_of(std::begin(kNames), std::end(kNames), [&](const char* k) { return m == k; });
}

std::optional<std::string> mbarrier(const std::vector<std::string>& parts, Op& op) {
    static const std::pair<const char*, MbarOp> kOps[] = {{"init", MbarOp::Init},
                                                          {"inval", MbarOp::Inval},
                                                          {"arrive", MbarOp::Arrive},
                                                          {"arrive_drop", MbarOp::ArriveDrop},
                                                          {"expect_tx", MbarOp::ExpectTx},
                                                          {"complete_tx", MbarOp::CompleteTx},
                                                          {"test_wait", MbarOp::TestWait},
                                                          {"try_wait", MbarOp::TryWait},
                                                          {"pending_count", MbarOp::PendingCount}};
    if (parts.size() < 2) return std::string("`mbarrier` needs an operation (init, arrive, try_wait, ...)");
    const auto it =
        std::find_if(std::begin(kOps), std::end(kOps), [&](const auto& k) { return parts[1] == k.first; });
    if (it == std::end(kOps)) return "`mbarrier." + parts[1] + "` is not an mbarrier operation";
    op.opc = Opc::Mbarrier;
    op.mode = static_cast<uint8_t>(it->second);
    op.t = {TK::B, 64};
    op.space = Space::Shared;
    for (size_t i = 2; i < parts.size(); ++i) {
        const std::string& m = parts[i];
        if (m == "parity" && (it->second == MbarOp::TestWait || it->second == MbarOp::TryWait))
            op.async |= kAfParity;
        else if (m == "expect_tx" && (it->second == MbarOp::Arrive || it->second == MbarOp::ArriveDrop))
            op.async |= kAfExpectTx;
        else if (m == "noComplete")
            op.async |= kAfNoComplete;
        else if (m == "shared::cluster")
            op.async |= kAfCluster, op.space = Space::SharedCluster;
        else if (!ordering(m))
            return "modifier `." + m + "` of mbarrier." + parts[1] + " is not modelled";
    }
    return std::nullopt;
}

std::optional<std::string> copy(const std::vector<std::string>& parts, Op& op) {
    // parts[0] == "cp"; parts[1] "async" or "reduce" ("cp.reduce.async.bulk...")
    const bool reduce = parts[1] == "reduce";
    size_t i = reduce ? 3 : 2;                                                          // past "async"
    if (i >= parts.size() || parts[i] != "bulk") return std::string("not a bulk copy"); // caller checked
    ++i;
    op.opc = Opc::AsyncCopy;
    bool tensor = false, prefetch = false, global = false;
    std::vector<std::string> spaces;
    if (i < parts.size() && (parts[i] == "commit_group" || parts[i] == "wait_group")) {
        op.mode =
            static_cast<uint8_t>(parts[i] == "commit_group" ? CopyForm::CommitGroup : CopyForm::WaitGroup);
        for (size_t k = i + 1; k < parts.size(); ++k) {
            if (parts[k] == "read" && parts[i] == "wait_group")
                op.async |= kAfRead;
            else
                return "modifier `." + parts[k] + "` of cp.async.bulk." + parts[i] + " is not modelled";
        }
        return std::nullopt;
    }
    for (; i < parts.size(); ++i) {
        const std::string& m = parts[i];
        if (m == "tensor")
            tensor = true;
        else if (m == "prefetch")
            prefetch = true;
        else if (m.size() == 2 && m[1] == 'd' && m[0] >= '1' && m[0] <= '5')
            op.vec = static_cast<uint8_t>(m[0] - '0');
        else if (m == "global" || m == "shared::cluster" || m == "shared::cta" || m == "shared")
            spaces.push_back(m), global |= m == "global";
        else if (m == "tile" || m == "L2")
            ;
        else if (m == "mbarrier::complete_tx::bytes")
            op.async |= kAfMbarrier;
        else if (m == "bulk_group")
            op.async |= kAfBulkGroup;
        else if (m == "multicast::cluster")
            op.async |= kAfMulticast;
        else if (m == "L2::cache_hint")
            op.async |= kAfCacheHint;
        else if (m == "cta_group::1")
            ;
        else if (m == "cta_group::2")
            op.async |= kAfCtaGroup2;
        else if (m == "im2col")
            op.async |= kAfIm2col;
        else if (m == "im2col::w")
            op.async |= kAfIm2colW;
        else if (m == "im2col::w::128")
            op.async |= kAfIm2colW128;
        else if (m == "im2col_no_offs")
            op.async |= kAfNoOffs;
        else if (m == "tile::gather4")
            op.async |= kAfGather4;
        else if (m == "tile::scatter4")
            op.async |= kAfScatter4;
        else if (m.rfind("im2col", 0) == 0 || m.rfind("tile::", 0) == 0)
            return "`." + m + "` is not a load mode of " + parts[0] + "." + parts[1] + " (" + kModes + ")";
        else if (reduce && (m == "add" || m == "min" || m == "max" || m == "inc" || m == "dec" ||
                            m == "and" || m == "or" || m == "xor")) {
            static const char* kOps[] = {"add", "min", "max", "exch", "cas",
                                         "and", "or",  "xor", "inc",  "dec"};
            for (size_t k = 0; k < std::size(kOps); ++k)
                if (m == kOps[k]) op.atom = static_cast<AtomOp>(k + 1);
        } else if (reduce &&
                   (m == "f16" || m == "bf16" || m == "f32" || m == "f64" || m == "u32" || m == "s32" ||
                    m == "u64" || m == "s64" || m == "b32" || m == "b64" || m == "noftz")) {
            if (m != "noftz")
                op.t = m == "f16"    ? Ty{TK::F16, 16}
                       : m == "bf16" ? Ty{TK::BF16, 16}
                       : m[0] == 'f' ? Ty{TK::F, uint8_t(m == "f32" ? 32 : 64)}
                       : m[0] == 'u' ? Ty{TK::U, uint8_t(m.substr(1) == "32" ? 32 : 64)}
                       : m[0] == 's' ? Ty{TK::S, uint8_t(m.substr(1) == "32" ? 32 : 64)}
                                     : Ty{TK::B, uint8_t(m.substr(1) == "32" ? 32 : 64)};
        } else
            return "modifier `." + m + "` of " + parts[0] + "." + parts[1] + " is not modelled";
    }
    CopyForm f;
    if (prefetch)
        f = tensor ? CopyForm::TensorPrefetch : CopyForm::BulkPrefetch;
    else if (spaces.empty())
        return std::string("a bulk copy needs its .dst.src state spaces");
    else if (spaces[0] == "global" && reduce && (spaces.size() < 2 || spaces[1] != "shared::cta"))
        return std::string(
            "cp.reduce.async.bulk into .global reads .shared::cta (PTX ISA 9.2 §9.7.9.25.4.2)");
    else if (spaces[0] == "global")
        f = reduce ? (tensor ? CopyForm::TensorReduce : CopyForm::BulkReduce)
                   : (tensor ? CopyForm::TensorStore : CopyForm::BulkStore);
    else if (reduce && tensor)
        return std::string("cp.reduce.async.bulk.tensor writes global memory only (.global.shared::cta)");
    else if (reduce && spaces[0] == "shared::cluster" && spaces.size() > 1 && spaces[1] == "shared::cta")
        f = CopyForm::BulkReduce; // .shared::cluster.shared::cta with .mbarrier::complete_tx::bytes
    else if (reduce)
        return std::string("cp.reduce.async.bulk goes .global.shared::cta or .shared::cluster.shared::cta "
                           "(PTX ISA 9.2 §9.7.9.25.4.2)");
    else if (spaces.size() > 1 && spaces[1] != "global")
        f = CopyForm::BulkSharedToCluster;
    else
        f = tensor ? CopyForm::TensorLoad : CopyForm::BulkLoad;
    if (!spaces.empty() && spaces[0] == "shared::cluster") op.async |= kAfCluster;
    (void)global;
    op.mode = static_cast<uint8_t>(f);
    if (tensor && op.vec < 1) return std::string("a tensor copy needs its dimension (.1d ... .5d)");
    const uint32_t modes =
        op.async & (kAfIm2col | kAfIm2colW | kAfIm2colW128 | kAfNoOffs | kAfGather4 | kAfScatter4);
    if (modes & (modes - 1)) return std::string("a tensor copy takes one load mode (") + kModes + ")";
    if (modes && !tensor) return std::string("a load mode needs cp.async.bulk.tensor (") + kModes + ")";
    const bool load = f == CopyForm::TensorLoad || f == CopyForm::TensorPrefetch;
    if ((modes & (kAfIm2col | kAfIm2colW | kAfIm2colW128 | kAfGather4)) && !load)
        return std::string("`.im2col`, `.im2col::w*` and `.tile::gather4` are load modes (global -> shared); "
                           "stores and reduces take `.tile`, `.tile::scatter4` or `.im2col_no_offs`");
    if ((modes & (kAfNoOffs | kAfScatter4)) && load)
        return std::string("`.im2col_no_offs` and `.tile::scatter4` are store modes (shared::cta -> global)");
    if ((modes & kAfScatter4) && reduce)
        return std::string(
            "cp.reduce.async.bulk.tensor takes `.tile` or `.im2col_no_offs`, not `.tile::scatter4`");
    if ((modes & (kAfIm2col | kAfIm2colW | kAfIm2colW128 | kAfNoOffs)) && op.vec < 3)
        return "im2col modes need a 3d to 5d tensor (" + std::to_string(op.vec) + "d given)";
    if ((modes & (kAfGather4 | kAfScatter4)) && op.vec != 2)
        return "`.tile::gather4` / `.tile::scatter4` need a 2d tensor (" + std::to_string(op.vec) +
               "d given)";
    return std::nullopt;
}

} // namespace

std::optional<std::string> decodeAsync(const std::vector<std::string>& parts, Op& op, bool& handled) {
    handled = false;
    const std::string& p0 = parts[0];
    if (p0 == "mbarrier") {
        handled = true;
        return mbarrier(parts, op);
    }
    if (p0 == "elect") {
        handled = true;
        op.opc = Opc::Elect;
        for (size_t i = 1; i < parts.size(); ++i)
            if (parts[i] != "sync") return "modifier `." + parts[i] + "` of elect is not modelled";
        return std::nullopt;
    }
    if (p0 == "mapa") {
        handled = true;
        op.opc = Opc::Mapa;
        op.space = Space::Generic;
        for (size_t i = 1; i < parts.size(); ++i) {
            if (parts[i] == "shared::cluster")
                op.space = Space::SharedCluster;
            else if (parts[i] == "u32" || parts[i] == "u64")
                op.t = {TK::U, uint8_t(parts[i] == "u32" ? 32 : 64)};
            else
                return "modifier `." + parts[i] + "` of mapa is not modelled";
        }
        if (op.t.bits == 0) return std::string("mapa needs .u32 or .u64");
        return std::nullopt;
    }
    if (p0 == "barrier" && parts.size() > 1 && parts[1] == "cluster") {
        handled = true;
        op.opc = Opc::ClusterBar;
        if (parts.size() < 3 || (parts[2] != "arrive" && parts[2] != "wait"))
            return std::string("barrier.cluster needs .arrive or .wait");
        op.mode = parts[2] == "wait";
        for (size_t i = 3; i < parts.size(); ++i)
            if (!ordering(parts[i])) return "modifier `." + parts[i] + "` of barrier.cluster is not modelled";
        return std::nullopt;
    }
    if (p0 == "fence" || p0 == "membar") {
        handled = true;
        op.opc = Opc::Fence;
        FenceForm f = FenceForm::Ordering;
        for (size_t i = 1; i < parts.size(); ++i) {
            if (parts[i] == "mbarrier_init") f = FenceForm::MbarrierInit;
            if (parts[i] == "proxy") f = FenceForm::ProxyOther;
            if (parts[i] == "async" && f == FenceForm::ProxyOther) f = FenceForm::ProxyAsync;
        }
        op.mode = static_cast<uint8_t>(f);
        return std::nullopt; // every fence form: no data effect (the order model reads the form)
    }
    if (p0 == "cp" && parts.size() > 2 &&
        ((parts[1] == "async" && parts[2] == "bulk") ||
         (parts[1] == "reduce" && parts.size() > 3 && parts[2] == "async" && parts[3] == "bulk"))) {
        handled = true;
        return copy(parts, op);
    }
    return std::nullopt;
}

std::optional<std::string> parseTensorOperand(const std::string& text, DecodeScope& s, Opnd& out,
                                              bool& handled) {
    handled = false;
    if (text.size() < 2 || text.front() != '[' || text.back() != ']') return std::nullopt;
    const auto inner = splitOperands(std::string_view(text).substr(1, text.size() - 2));
    if (inner.size() != 2 || inner[1].empty() || inner[1].front() != '{') return std::nullopt;
    handled = true;
    if (auto err = parseOperand("[" + inner[0] + "]", s, out)) return err;
    Opnd coords;
    if (auto err = parseOperand(inner[1], s, coords)) return err;
    out.elems = std::move(coords.elems);
    if (out.elems.empty() || out.elems.size() > 5)
        return std::string("a tensor copy takes 1 to 5 coordinates");
    return std::nullopt;
}

} // namespace layoutscope::exec
