// The recorder (record.hpp): a kernel's run written as a scenario, statement by statement.
#include "exec/record.hpp"
#include "layoutscope/core/hex.hpp"

#include <algorithm>
#include <cstdio>

namespace layoutscope::exec {
namespace {

// Whether `more` bytes of text would pass the budget: pokes stop at kMaxPokeText, the rest (the
// operations the checks need) at kMaxBytes.
bool over(Recorder& r, size_t more, bool poke = false) {
    if (r.body.size() + more <= (poke ? Recorder::kMaxPokeText : Recorder::kMaxBytes)) return false;
    (poke ? r.pokesTruncated : r.truncated) = true;
    return true;
}

std::string typeName(TensorDataType t) {
    return cudaName(t); // CU_TENSOR_MAP_DATA_TYPE_* (the scenario reader takes the cuda.h names)
}

} // namespace

bool recordFits(Machine& m, size_t more, bool poke) {
    return !over(*m.rec, more, poke);
}

std::string opcodeOf(const Op& op) {
    std::string_view t = op.text;
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    if (!t.empty() && t.front() == '@') { // the guard
        const size_t sp = t.find_first_of(" \t");
        t = sp == std::string_view::npos ? std::string_view() : t.substr(sp);
        while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
    }
    const size_t end = t.find_first_of(" \t{[;,");
    return std::string(t.substr(0, end));
}

std::string smemRef(uint32_t cta, uint64_t offset) {
    return "smem_c" + std::to_string(cta) + (offset ? "+" + hex(offset) : std::string());
}

std::string barrierName(Machine& m, uint32_t cta, uint32_t offset) {
    m.rec->barriers.insert({cta, offset});
    return "bar_c" + std::to_string(cta) + "_" + hex(offset).substr(2);
}

std::string letName(Machine& m, const char* prefix, uint64_t value) {
    std::string n = std::string(prefix) + "_" + hex(value).substr(2);
    m.rec->lets.emplace(n, value);
    return n;
}

std::string mapKey(const TensorMap& map) {
    const auto& p = map.p;
    std::string k = std::to_string(int(p.dataType)) + "/" + std::to_string(p.tensorRank) + "/" +
                    std::to_string(p.globalAddress) + "/" + std::to_string(int(p.interleave)) + "/" +
                    std::to_string(int(p.swizzle)) + "/" + std::to_string(int(p.l2Promotion)) + "/" +
                    std::to_string(int(p.oobFill));
    for (uint32_t i = 0; i < p.tensorRank; ++i)
        k += "/" + std::to_string(p.globalDim[i]) + "," + std::to_string(p.boxDim[i]) + "," +
             std::to_string(p.elementStrides[i]) + "," + std::to_string(i ? p.globalStrides[i - 1] : 0);
    return k;
}

std::string mapName(Machine& m, const TensorMap& map) {
    auto& maps = m.rec->maps;
    const std::string key = mapKey(map);
    for (const auto& [mp, name] : maps)
        if (mapKey(mp) == key) return name;
    std::string name = "map" + std::to_string(maps.size());
    for (const ExecTensor& t : m.tensors) // the tensor it points into names it, when it starts there
        if (t.address == map.p.globalAddress) {
            name = "tm_" + t.name;
            for (const auto& [mp, n] : maps)
                if (n == name) name = "map" + std::to_string(maps.size());
        }
    maps.emplace_back(map, name);
    return name;
}

void recordNote(Machine& m, const std::string& what) {
    if (!m.rec || !m.rec->noted.insert(what).second) return;
    m.rec->notes.push_back(what);
}

void recordOrigin(Machine& m, const Warp& w, const Op& op, int lane) {
    Recorder& r = *m.rec;
    const uint32_t warp = w.firstThread / 32;
    if (r.cta != int(w.cta)) r.body += "cta " + std::to_string(w.cta) + "\n", r.cta = int(w.cta);
    if (r.warp != int(warp)) r.body += "warp " + std::to_string(warp) + "\n", r.warp = int(warp);
    r.body += "origin ptx=" + std::to_string(op.line);
    if (op.locLine) {
        std::string file = "file" + std::to_string(op.locFile);
        for (const auto& [n, name] : m.p.files)
            if (n == op.locFile) file = name;
        r.body += " cu=\"" + file + "\":" + std::to_string(op.locLine);
    }
    r.body += " cta=" + std::to_string(w.cta) + " warp=" + std::to_string(warp) +
              " thread=" + std::to_string(w.firstThread + uint32_t(lane)) + "\n";
}

void recordStatement(Machine& m, const std::string& text) {
    m.rec->body += text + "\n";
    ++m.rec->statements;
}

void recordWrite(Machine& m, bool global, uint32_t cta, uint64_t addr, uint64_t len) {
    if (m.rec && len) m.rec->pending.push_back({global, cta, addr, len});
}

void recordFlush(Machine& m, const Warp& w, const Op& op, uint32_t exec) {
    Recorder& r = *m.rec;
    std::vector<Recorder::Write> ws = std::move(r.pending);
    r.pending.clear();
    std::sort(ws.begin(), ws.end(), [](const Recorder::Write& a, const Recorder::Write& b) {
        return std::tie(a.global, a.cta, a.addr) < std::tie(b.global, b.cta, b.addr);
    });
    std::vector<Recorder::Write> runs; // contiguous (or overlapping) ranges merged
    for (const auto& x : ws) {
        if (!runs.empty() && runs.back().global == x.global && runs.back().cta == x.cta &&
            x.addr <= runs.back().addr + runs.back().len) {
            runs.back().len = std::max(runs.back().len, x.addr + x.len - runs.back().addr);
            continue;
        }
        runs.push_back(x);
    }
    const int lane = exec ? std::countr_zero(exec) : 0;
    static const char* digits = "0123456789abcdef";
    for (size_t a = 0; a < runs.size();) { // one poke per space and CTA: all its ranges
        size_t b = a;
        uint64_t bytes = 0;
        while (b < runs.size() && runs[b].global == runs[a].global && runs[b].cta == runs[a].cta)
            bytes += runs[b++].len;
        if (over(r, 2 * bytes + 24 * (b - a) + 256, true)) return;
        recordOrigin(m, w, op, lane);
        std::string line =
            std::string("poke ") + (runs[a].global ? "global" : "smem cta=" + std::to_string(runs[a].cta));
        line.reserve(line.size() + 2 * bytes + 24 * (b - a));
        for (size_t k = a; k < b; ++k) {
            const Recorder::Write& x = runs[k];
            const uint8_t* p = nullptr;
            if (!x.global) {
                p = m.ctas[x.cta].smem.data() + x.addr;
            } else {
                for (const ExecTensor& t : m.tensors)
                    if (x.addr >= t.address && x.addr - t.address + x.len <= t.bytes.size())
                        p = t.bytes.data() + (x.addr - t.address);
                if (!p) continue; // a module .global variable: not a tensor the views show
            }
            line += " " + hex(x.addr) + "=";
            for (uint64_t i = 0; i < x.len; ++i) line += digits[p[i] >> 4], line += digits[p[i] & 15];
            r.pokeBytes += x.len;
        }
        recordStatement(m, line);
        a = b;
    }
}

namespace {

// The opcode of a tile copy as written (less .L2::cache_hint, whose operand the recording leaves out) and its
// coordinates `{c0, c1, ...}`.
std::pair<std::string, std::string> tmaParts(Machine& m, const Warp& w, const Op& op, int lane, uint32_t rank,
                                             const std::array<int32_t, 5>& coords) {
    recordOrigin(m, w, op, lane);
    std::string opc = opcodeOf(op);
    if (const size_t h = opc.find(".L2::cache_hint"); h != std::string::npos) opc.erase(h, 15);
    std::string c;
    for (uint32_t i = 0; i < rank; ++i) c += (i ? ", " : "") + std::to_string(coords[i]);
    return {opc, "{" + c + "}"};
}

} // namespace

void recordTmaLoad(Machine& m, const Warp& w, const Op& op, int lane, const TmaTileLoad& ld) {
    if (!m.rec || over(*m.rec, 512)) return;
    const auto [opc, coords] = tmaParts(m, w, op, lane, ld.map.p.tensorRank, ld.coords);
    std::string text = opc + " [" + smemRef(ld.dstCta, ld.dstAddr) + "], [" + mapName(m, ld.map) + ", " +
                       coords + "], [" + barrierName(m, ld.mbarCta, ld.mbarAddr) + "]";
    if (ld.multicast) text += ", " + std::to_string(ld.ctaMask);
    recordStatement(m, text + ";");
}

void recordTmaStore(Machine& m, const Warp& w, const Op& op, int lane, const TmaTileStore& st) {
    if (!m.rec || over(*m.rec, 512)) return;
    const auto [opc, coords] = tmaParts(m, w, op, lane, st.map.p.tensorRank, st.coords);
    recordStatement(m, opc + " [" + mapName(m, st.map) + ", " + coords + "], [" +
                           smemRef(st.srcCta, st.srcAddr) + "];");
}

void recordMbarrier(Machine& m, const Warp& w, const Op& op, int lane, bool init, uint32_t cta, uint32_t off,
                    uint64_t value, bool arrive) {
    if (!m.rec || over(*m.rec, 256)) return;
    recordOrigin(m, w, op, lane);
    const std::string b = barrierName(m, cta, off);
    if (init)
        return recordStatement(m,
                               "mbarrier.init.shared::cta.b64 [" + b + "], " + std::to_string(value) + ";");
    const std::string space = cta == w.cta ? ".shared::cta" : ".shared::cluster";
    if (arrive)
        return recordStatement(m, "mbarrier.arrive.expect_tx.release.cluster" + space + ".b64 _, [" + b +
                                      "], " + std::to_string(value) + ";");
    recordStatement(m, "mbarrier.expect_tx.relaxed.cluster" + space + ".b64 [" + b + "], " +
                           std::to_string(value) + ";");
}

void recordWait(Machine& m, const Warp& w, const Op& op, int lane, uint32_t off, uint32_t parity) {
    if (!m.rec || over(*m.rec, 256)) return;
    recordOrigin(m, w, op, lane);
    const bool test = opcodeOf(op).rfind("mbarrier.test_wait", 0) == 0;
    recordStatement(m, std::string(test ? "mbarrier.test_wait" : "mbarrier.try_wait") +
                           ".parity.shared::cta.b64 p, [" + barrierName(m, w.cta, off) + "], " +
                           std::to_string(parity & 1) + ";");
}

std::string recordingText(const Machine& m, const Recorder& r, const std::string& title) {
    std::string h = "# " + title + "\n";
    h +=
        "# Recorded by layoutscope-cli exec: every TMA, mbarrier expect-tx, tcgen05 and wgmma operation of "
        "the\n"
        "# run with its operands, and the bytes its threads stored (`poke`), each after the `origin` of its\n"
        "# PTX line (docs/exec.md \"Kernel scenarios\"). Global tensors start as zeros here; open the "
        "launch\n"
        "# through a `kernel` directive to give them the kernel's bytes.\n";
    for (const std::string& n : r.notes) h += "# not recorded: " + n + "\n";
    if (r.truncated)
        h += "# truncated: the recording stops at " + std::to_string(Recorder::kMaxBytes) + " bytes\n";
    h += "target " + (m.sm.empty() ? std::string("sm_90a") : m.sm) + "\n";
    if (m.ctas.size() > 1) h += "cluster " + std::to_string(m.ctas.size()) + "\n";
    for (const auto& [map, name] : r.maps) {
        const auto& p = map.p;
        std::string dims, strides, box;
        for (uint32_t i = 0; i < p.tensorRank; ++i) {
            dims += (i ? "," : "") + std::to_string(p.globalDim[i]);
            box += (i ? "," : "") + std::to_string(p.boxDim[i]);
            if (i) strides += (i > 1 ? "," : "") + std::to_string(p.globalStrides[i - 1]);
        }
        std::string es;
        for (uint32_t i = 0; i < p.tensorRank; ++i)
            es += (i ? "," : "") + std::to_string(p.elementStrides[i]);
        h += "tensormap " + name + " tiled " + typeName(p.dataType) + " dims=[" + dims + "]" +
             (p.tensorRank > 1 ? " strides=[" + strides + "]" : std::string()) + " box=[" + box +
             "] elementStrides=[" + es + "] interleave=" + cudaName(p.interleave) +
             " swizzle=" + cudaName(p.swizzle) + " l2=" + cudaName(p.l2Promotion) +
             " oob=" + (p.oobFill == TensorOobFill::NONE ? "zero" : "nan") +
             " address=" + hex(p.globalAddress) + " fill=zero\n";
    }
    for (size_t c = 0; c < m.ctas.size(); ++c)
        h += "smem smem_c" + std::to_string(c) + " " +
             std::to_string(std::max<size_t>(m.ctas[c].smem.size(), 16)) +
             " align=16 at=0 cta=" + std::to_string(c) + "\n";
    for (const auto& [cta, off] : r.barriers)
        h += "mbarrier bar_c" + std::to_string(cta) + "_" + hex(off).substr(2) + " at=" + hex(off) +
             " cta=" + std::to_string(cta) + "\n";
    for (const auto& [name, v] : r.lets) h += "let " + name + " = " + hex(v) + "\n";
    return h + r.body;
}

} // namespace layoutscope::exec
