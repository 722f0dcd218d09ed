// tcgen05.ld / tcgen05.st forms and thread/register -> TMEM maps (PTX ISA 9.2 §9.7.16.8; tcgen05.md §4).
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "layoutscope/tcgen05/tmem.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <string>

namespace layoutscope {
namespace {

Diagnostic syntaxDiag(std::string msg) {
    const RuleInfo& r = ruleInfo(RuleId::PtxSyntax);
    return Diagnostic{Severity::Error, DiagCode::Syntax, {}, std::move(msg), r.reference, r.provenance};
}

/// Dotted tokens of the mnemonic (text up to the first blank), e.g. {"tcgen05","ld","sync",...}.
std::vector<std::string> mnemonicTokens(std::string_view ptx, std::string_view& rest) {
    size_t i = 0;
    while (i < ptx.size() && std::isspace(static_cast<unsigned char>(ptx[i]))) ++i;
    size_t j = i;
    while (j < ptx.size() && !std::isspace(static_cast<unsigned char>(ptx[j])) && ptx[j] != ';') ++j;
    rest = ptx.substr(j);
    std::vector<std::string> toks;
    std::string cur;
    for (char c : ptx.substr(i, j - i)) {
        if (c == '.') {
            toks.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    toks.push_back(cur);
    return toks;
}

/// The 16x32bx2 immediate: for ld the operand after "]"; for st the operand between "]" and "{".
bool parseImmediate(std::string_view rest, bool store, int64_t& out) {
    const size_t rb = rest.find(']');
    if (rb == std::string_view::npos) return false;
    std::string_view s = rest.substr(rb + 1);
    if (store) s = s.substr(0, s.find('{'));
    size_t p = s.find(',');
    if (p == std::string_view::npos) return false;
    s = s.substr(p + 1);
    std::string num;
    for (char c : s) {
        if (c == ',' || c == ';' || c == '{') break;
        if (!std::isspace(static_cast<unsigned char>(c))) num += c;
    }
    if (num.empty()) return false;
    try {
        size_t used = 0;
        out = std::stoll(num, &used, 0);
        return used == num.size();
    } catch (...) {
        return false;
    }
}

} // namespace

const char* ldStShapeName(LdStShape s) {
    switch (s) {
    case LdStShape::k16x64b:
        return "16x64b";
    case LdStShape::k16x128b:
        return "16x128b";
    case LdStShape::k16x256b:
        return "16x256b";
    case LdStShape::k32x32b:
        return "32x32b";
    case LdStShape::k16x32bx2:
        return "16x32bx2";
    }
    return "?";
}

Result<LdStForm> parseLdSt(std::string_view ptx) {
    std::string_view rest;
    const std::vector<std::string> t = mnemonicTokens(ptx, rest);
    if (t.size() < 3 || t[0] != "tcgen05" || (t[1] != "ld" && t[1] != "st"))
        return syntaxDiag("expected tcgen05.ld or tcgen05.st");
    LdStForm f;
    f.store = t[1] == "st";
    bool haveShape = false, haveNum = false;
    for (size_t i = 2; i < t.size(); ++i) {
        const std::string& k = t[i];
        if (k == "red" && !f.store)
            f.reduce = true;
        else if (k == "16x64b")
            f.shape = LdStShape::k16x64b, haveShape = true;
        else if (k == "16x128b")
            f.shape = LdStShape::k16x128b, haveShape = true;
        else if (k == "16x256b")
            f.shape = LdStShape::k16x256b, haveShape = true;
        else if (k == "32x32b")
            f.shape = LdStShape::k32x32b, haveShape = true;
        else if (k == "16x32bx2")
            f.shape = LdStShape::k16x32bx2, haveShape = true;
        else if (k.size() > 1 && k[0] == 'x' && std::all_of(k.begin() + 1, k.end(), ::isdigit)) {
            f.num = static_cast<uint32_t>(std::stoul(k.substr(1)));
            haveNum = true;
        } else if ((k == "pack::16b" && !f.store) || (k == "unpack::16b" && f.store))
            f.pack16b = true;
        else if (k == "min" || k == "max")
            f.redMax = k == "max";
        else if (k == "abs")
            f.redAbs = true;
        else if (k == "NaN")
            f.redNaN = true;
        else if (k == "f32" || k == "u32" || k == "s32")
            f.redType = k[0];
        else if (k == "sync" || k == "aligned" || k == "b32")
            continue;
        else
            return syntaxDiag("unexpected qualifier ." + k + " in tcgen05." + t[1]);
    }
    if (!haveShape) return syntaxDiag("missing .shape (16x64b, 16x128b, 16x256b, 32x32b or 16x32bx2)");
    if (!haveNum) return syntaxDiag("missing .num (.x1 ... .x128)");
    if (f.num == 0 || f.num > 128 || (f.num & (f.num - 1)) != 0)
        return tcgen05Diagnostic(Severity::Error, RuleId::TmemLdStMap, ".num must be .x1, .x2, ... or .x128");
    if (regsPerThread(f) > 128)
        return tcgen05Diagnostic(Severity::Error, RuleId::TmemLdStMap,
                                 std::string(".x") + std::to_string(f.num) + " is not allowed with ." +
                                     ldStShapeName(f.shape) + " (more than 128 registers; PTX Table 49/50)");
    if (f.reduce &&
        (f.num < 2 || (f.shape != LdStShape::k32x32b && f.shape != LdStShape::k16x32bx2) || f.pack16b))
        return tcgen05Diagnostic(Severity::Error, RuleId::TmemLdStMap,
                                 "tcgen05.ld.red needs .32x32b or .16x32bx2, .x2 or more, and no .pack::16b");
    if (f.reduce && f.redType != 'f' && (f.redAbs || f.redNaN))
        return tcgen05Diagnostic(Severity::Error, RuleId::TmemLdStMap, ".abs and .NaN need .f32");
    if (f.shape == LdStShape::k16x32bx2 && !parseImmediate(rest, f.store, f.immHalfSplitoff)) {
        // Only the mnemonic given: the caller supplies immHalfSplitoff. unverified: open question 25
        // (RuleId::TmemHalfSplitoff: any value is accepted).
        f.immHalfSplitoff = 0;
    }
    return f;
}

uint32_t regsPerThread(const LdStForm& f) {
    switch (f.shape) {
    case LdStShape::k16x128b:
        return 2 * f.num;
    case LdStShape::k16x256b:
        return 4 * f.num;
    default:
        return f.num;
    }
}

uint32_t ldRedReduce(const LdStForm& f, const std::vector<uint32_t>& values) {
    auto better = [&](auto a, auto b) { return f.redMax ? b > a : b < a; };
    if (f.redType == 'u' || f.redType == 's') {
        uint32_t best = values.empty() ? 0 : values[0];
        for (uint32_t v : values)
            if (f.redType == 'u' ? better(best, v)
                                 : better(static_cast<int32_t>(best), static_cast<int32_t>(v)))
                best = v;
        return best;
    }
    bool have = false, sawNaN = false;
    float best = 0;
    for (uint32_t v : values) {
        float x;
        std::memcpy(&x, &v, 4);
        if (std::isnan(x)) {
            sawNaN = true;
            continue;
        }
        if (f.redAbs) x = std::fabs(x);
        if (!have || better(best, x)) best = x, have = true;
    }
    if ((f.redNaN && sawNaN) || !have) return 0x7FFFFFFFu; // unverified: open question 29
    uint32_t out;
    std::memcpy(&out, &best, 4);
    return out;
}

uint32_t lanesTouched(const LdStForm& f) {
    return f.shape == LdStShape::k32x32b ? 32 : 16;
}

std::vector<RegSegment> ldStSegments(const LdStForm& f, uint32_t t, uint32_t j) {
    std::array<RegSegment, 2> seg;
    const uint32_t n = ldStSegmentsInto(f, t, j, seg);
    return std::vector<RegSegment>(seg.begin(), seg.begin() + n);
}

uint32_t ldStSegmentsInto(const LdStForm& f, uint32_t t, uint32_t j, std::array<RegSegment, 2>& out) {
    int64_t lane = 0, col = 0, half = 0; // col: unpacked column offset without the 16x32bx2 half offset
    switch (f.shape) {
    case LdStShape::k32x32b:
        lane = t;
        col = j;
        break;
    case LdStShape::k16x64b:
        lane = t / 4 + 8 * (t % 2);
        col = 2 * j + (t / 2) % 2;
        break;
    case LdStShape::k16x128b:
        lane = t / 4 + 8 * (j % 2);
        col = 4 * (j / 2) + t % 4;
        break;
    case LdStShape::k16x256b:
        lane = t / 4 + 8 * ((j / 2) % 2);
        col = 8 * (j / 4) + 2 * (t % 4) + j % 2;
        break;
    case LdStShape::k16x32bx2:
        lane = t % 16;
        col = j;
        half = (t / 16) * f.immHalfSplitoff;
        break;
    }
    if (!f.pack16b) {
        out[0] = RegSegment{0, 32, lane, col + half, 0};
        return 1;
    }
    out[0] = RegSegment{0, 16, lane, 2 * col + half, 0};
    out[1] = RegSegment{16, 16, lane, 2 * col + 1 + half, 0};
    return 2;
}

TmemBit ldStBit(const LdStForm& f, uint32_t t, uint32_t reg, uint32_t bit) {
    for (const RegSegment& s : ldStSegments(f, t, reg))
        if (bit >= s.regBitLo && bit < s.regBitLo + s.nbits)
            return TmemBit{s.laneOff, s.colOff, s.tmemBitLo + (bit - s.regBitLo), true};
    return TmemBit{0, 0, 0, false};
}

LdStFootprint ldStFootprint(const LdStForm& f) {
    int64_t maxCol = -1;
    const uint32_t regs = regsPerThread(f);
    for (uint32_t t = 0; t < 32; ++t) {
        if (f.shape != LdStShape::k16x32bx2 && t >= 4) break; // threads 0..3 reach every column
        if (f.shape == LdStShape::k16x32bx2 && t != 0 && t != 16) continue;
        // Column offsets grow with j / P for P = 1, 2 or 4 registers per group (regs is a multiple of P),
        // whatever the rest: the last four registers hold the largest.
        for (uint32_t j = regs > 4 ? regs - 4 : 0; j < regs; ++j) {
            std::array<RegSegment, 2> segs;
            const uint32_t n = ldStSegmentsInto(f, t, j, segs); // no allocation: called per instruction
            for (uint32_t i = 0; i < n; ++i) maxCol = std::max(maxCol, segs[i].colOff);
        }
    }
    return LdStFootprint{lanesTouched(f), maxCol + 1};
}

Status checkLdStAccess(const LdStForm& f, uint32_t warpIdInCta, uint32_t taddr) {
    const TmemAddr a = decodeTmemAddress(taddr);
    std::vector<Diagnostic> ds;
    if (Status s = checkLaneQuarter(warpIdInCta, a.lane, lanesTouched(f)); !s) ds.push_back(s.error());
    const LdStFootprint fp = ldStFootprint(f);
    int64_t lo = a.column, hi = a.column + fp.cols;
    if (f.shape == LdStShape::k16x32bx2 && f.immHalfSplitoff < 0) lo += f.immHalfSplitoff;
    if (lo < 0 || hi > static_cast<int64_t>(kTmemColumns))
        ds.push_back(tcgen05Diagnostic(Severity::Error, RuleId::TmemLdStMap,
                                       "columns " + std::to_string(lo) + ".." + std::to_string(hi - 1) +
                                           " of this access fall outside TMEM columns 0..511"));
    if (ds.empty()) return okStatus();
    return ds;
}

} // namespace layoutscope
