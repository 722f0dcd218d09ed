// Decoding the tcgen05 family for the executor (PTX ISA 9.2 §9.7.16.7-11): which instruction (Op::mode,
// exec/tcgen05_state.hpp), its .cta_group (Op::boolOp) and its operands. The ld/st and cp shapes are
// validated here by the engine's own parsers (tcgen05.hpp), so a malformed form stops at its line
// before the run reaches it.
#include "exec/decode.hpp"
#include "exec/tcgen05_state.hpp"
#include "layoutscope/tcgen05/tcgen05.hpp"
#include "layoutscope/tcgen05/umma.hpp"

#include <algorithm>

namespace layoutscope::exec {

namespace {

std::vector<std::string> dotTokens(std::string_view mnemonic) {
    std::vector<std::string> t;
    std::string cur;
    for (char c : mnemonic) {
        if (c == '.')
            t.push_back(cur), cur.clear();
        else
            cur += c;
    }
    t.push_back(cur);
    return t;
}

bool has(const std::vector<std::string>& t, std::string_view k) {
    return std::find(t.begin(), t.end(), k) != t.end();
}

} // namespace

std::string tcgenBody(const Op& op) {
    std::string_view t = op.text;
    t = t.substr(0, t.find('\n'));
    if (!t.empty() && t[0] == '@') { // the guard
        size_t e = t.find_first_of(" \t");
        t = e == std::string_view::npos ? std::string_view() : t.substr(e);
    }
    while (!t.empty() && (t[0] == ' ' || t[0] == '\t')) t = t.substr(1);
    const size_t e = std::min(t.find_first_of(" \t\r{["), t.size());
    return std::string(t.substr(0, e)) + " " + std::string(t.substr(e));
}

std::optional<std::string> decodeTcgen05(std::string_view text, DecodeScope& s, Op& op) {
    const size_t e = std::min(text.find_first_of(" \t\n\r{["), text.size());
    const std::string mnemonic(text.substr(0, e));
    std::string rest = trim(text.substr(e));
    if (!rest.empty() && rest.back() == ';') rest.pop_back();
    const std::vector<std::string> t = dotTokens(mnemonic);
    op.opc = Opc::Tcgen05;
    op.boolOp = has(t, "cta_group::2") ? 2 : 1;
    const std::string& what = t.size() > 1 ? t[1] : std::string();
    for (const auto& a : splitOperands(rest)) {
        if (a.empty()) continue;
        Opnd o;
        if (auto err = parseOperand(a, s, o)) return err;
        op.o.push_back(std::move(o));
    }
    const size_t n = op.o.size();
    // The reason for a wrong operand list, naming the form's operands; count(lo, hi, form): nullopt when the
    // number of operands is in [lo, hi].
    auto usage = [&](const std::string& form) -> std::optional<std::string> {
        return "`" + mnemonic + "` takes operands " + form + " (PTX ISA 9.2 §9.7.16)";
    };
    auto count = [&](size_t lo, size_t hi, const char* form) -> std::optional<std::string> {
        if (n < lo || n > hi) return usage(form);
        return std::nullopt;
    };
    const std::string norm = mnemonic + " " + rest;
    if (what == "alloc") {
        op.mode = uint8_t(Tc::Alloc);
        if (n != 2 || op.o[0].kind != OK::Mem) return usage("[dst], nCols (dst a shared::cta address)");
        return std::nullopt;
    }
    if (what == "dealloc") {
        op.mode = uint8_t(Tc::Dealloc);
        return count(2, 2, "taddr, nCols");
    }
    if (what == "relinquish_alloc_permit") {
        op.mode = uint8_t(Tc::Relinquish);
        return count(0, 0, "none");
    }
    if (what == "ld" || what == "st") {
        op.mode = uint8_t(what == "ld" ? Tc::Ld : Tc::St);
        Result<LdStForm> f = parseLdSt(norm);
        if (!f) return f.error().message + " (" + f.error().ruleRef + ")";
        // ld: {r...}, [taddr]{, imm}; ld.red: {r...}, redval, [taddr]{, imm}; st: [taddr]{, imm}, {r...}
        const size_t red = f->reduce ? 1 : 0;
        const size_t vec = what == "ld" ? 0 : n - 1, addr = what == "ld" ? 1 + red : 0;
        if (n < 2 + red || n > 3 + red || op.o[vec].kind != OK::Vec || op.o[addr].kind != OK::Mem ||
            (red && op.o[1].kind != OK::Reg))
            return usage(what == "st" ? "[taddr] (, immHalfSplitoff), {registers}"
                         : red == 0   ? "{registers}, [taddr] (, immHalfSplitoff)"
                                      : "{registers}, redval, [taddr] (, immHalfSplitoff)");
        if (op.o[vec].elems.size() != regsPerThread(*f))
            return "`" + mnemonic + "` moves " + std::to_string(regsPerThread(*f)) +
                   " registers a thread but the vector has " + std::to_string(op.o[vec].elems.size()) +
                   " (PTX ISA 9.2 §9.7.16.8.3, Table 49/50)";
        for (const Opnd& r : op.o[vec].elems)
            if (r.kind != OK::Reg && (what == "ld" || r.kind != OK::Imm))
                return std::string("the register vector must hold registers");
        return std::nullopt;
    }
    if (what == "wait::ld" || what == "wait::st") {
        op.mode = uint8_t(what == "wait::ld" ? Tc::WaitLd : Tc::WaitSt);
        return count(0, 0, "none");
    }
    if (what == "fence::before_thread_sync" || what == "fence::after_thread_sync") {
        op.mode = uint8_t(Tc::Fence);
        return count(0, 0, "none");
    }
    if (what == "mma") {
        op.mode = uint8_t(Tc::Mma);
        const bool ws = has(t, "ws"), sp = has(t, "sp");
        op.async = (ws ? kMmaWs : 0u) | (sp ? kMmaSp : 0u);
        static const std::pair<const char*, UmmaKind> kKinds[] = {
            {"kind::f16", UmmaKind::F16},           {"kind::tf32", UmmaKind::Tf32},
            {"kind::f8f6f4", UmmaKind::F8f6f4},     {"kind::i8", UmmaKind::I8},
            {"kind::mxf8f6f4", UmmaKind::Mxf8f6f4}, {"kind::mxf4", UmmaKind::Mxf4},
            {"kind::mxf4nvf4", UmmaKind::Mxf4nvf4}};
        bool kind = false;
        for (const auto& [name, k] : kKinds)
            if (has(t, name)) op.vec = uint8_t(k), kind = true; // Op::vec holds the UmmaKind
        if (!kind)
            return "`" + mnemonic +
                   "`: .kind must be kind::f16, tf32, f8f6f4, i8, mxf8f6f4, mxf4 or mxf4nvf4";
        const UmmaKind k = static_cast<UmmaKind>(op.vec);
        const bool scaled = has(t, "block_scale");
        if (scaled != ummaKindBlockScaled(k))
            return "`" + mnemonic +
                   "`: .block_scale goes with (and only with) kind::mxf8f6f4, mxf4 and mxf4nvf4";
        // Op::t.bits: elements of K one scale factor covers (PTX ISA 9.2 §9.7.16.10.9 .scale_vectorsize):
        // .block32 / .scale_vec::1X (mxf8f6f4) / ::2X (mxf4*) = 32, .block16 / .scale_vec::4X = 16, omitted
        // 32 (kind::mxf4nvf4 has no default).
        op.t.bits = 32;
        bool sized = false;
        for (size_t i = 2; i < t.size(); ++i) {
            const std::string& q = t[i];
            if (q == "block16" || q == "scale_vec::4X")
                op.t.bits = 16, sized = true;
            else if (q == "block32" || q == "scale_vec::1X" || q == "scale_vec::2X")
                sized = true;
            else if (ws && q.rfind("collector::b", 0) == 0) { // .collector::bN::fill|use|lastuse|discard
                static const char* kOps[] = {"discard", "fill", "use", "lastuse"}; // UmmaCollectorOp order
                const size_t sep = q.find("::", 12);
                const std::string buf = q.substr(12, sep == std::string::npos ? 0 : sep - 12),
                                  use = sep == std::string::npos ? "" : q.substr(sep + 2);
                const auto it = std::find(std::begin(kOps), std::end(kOps), use);
                if (buf.size() != 1 || buf[0] < '0' || buf[0] > '3' || it == std::end(kOps))
                    return "`" + mnemonic + "`: ." + q +
                           ": expected .collector::b0..b3::fill|use|lastuse|discard (PTX ISA 9.2 "
                           "§9.7.16.10.9.3)";
                op.async |= uint32_t(buf[0] - '0') << 4 | uint32_t(it - std::begin(kOps)) << 6;
            } else if (q != "mma" && q != "block_scale" && q != "ws" && q != "sp" &&
                       q.rfind("cta_group::", 0) != 0 && q.rfind("kind::", 0) != 0 &&
                       q.rfind("collector::", 0) != 0)
                return "`" + mnemonic + "`: qualifier ." + q + " is not modelled by the executor";
        }
        if (k == UmmaKind::Mxf4nvf4 && !sized)
            return "`" + mnemonic + "`: kind::mxf4nvf4 needs .block16, .block32, .scale_vec::2X or ::4X";
        if (sp && scaled)
            return "`" + mnemonic + "`: tcgen05.mma.sp with .block_scale is not modelled by the executor";
        if (ws && (scaled || op.boolOp != 1))
            return "`" + mnemonic +
                   "`: tcgen05.mma.ws is .cta_group::1 with kind::f16, tf32, f8f6f4 or i8 "
                   "(PTX ISA 9.2 §9.7.16.10.9.3)";
        const size_t meta = sp ? 1 : 0; // [sp-meta-tmem] after b-desc
        if (sp && (n < 4 || op.o[3].kind != OK::Mem))
            return usage(
                std::string("[d-tmem], a-desc|[a-tmem], b-desc, [sp-meta-tmem], idesc, ") +
                (ws ? "enable-input-d {, zero-column-mask-desc}" : "{disable-output-lane}, enable-input-d"));
        if (ws) { // [d-tmem], a-desc|[a-tmem], b-desc, {[sp-meta-tmem],} idesc, enable-input-d {, zcm-desc}
            if (n < 5 + meta || n > 6 + meta || op.o[0].kind != OK::Mem || op.o[3 + meta].kind == OK::Vec)
                return usage(std::string("[d-tmem], a-desc|[a-tmem], b-desc, ") +
                             (sp ? "[sp-meta-tmem], " : "") +
                             "idesc, enable-input-d {, zero-column-mask-desc}");
            if (n == 6 + meta) op.async |= kMmaZeroColumnMask;
            return std::nullopt;
        }
        if (scaled) { // [d-tmem], a-desc|[a-tmem], b-desc, idesc, [scale-A-tmem], [scale-B-tmem],
                      // enable-input-d
            if (n != 7 || op.o[0].kind != OK::Mem || op.o[4].kind != OK::Mem || op.o[5].kind != OK::Mem)
                return usage("[d-tmem], a-desc|[a-tmem], b-desc, idesc, [scale-A-tmem], [scale-B-tmem], "
                             "enable-input-d");
            return std::nullopt;
        }
        // [d-tmem], a-desc | [a-tmem], b-desc, idesc, {disable-output-lane}?, enable-input-d {,
        // scale-input-d}
        // .sp: [sp-meta-tmem] after b-desc
        if (n < 5 + meta || n > 7 + meta || op.o[0].kind != OK::Mem)
            return usage(std::string("[d-tmem], a-desc|[a-tmem], b-desc, ") + (sp ? "[sp-meta-tmem], " : "") +
                         "idesc, {disable-output-lane}, enable-input-d");
        const bool mask = op.o[4 + meta].kind == OK::Vec;
        if (n == 7 + meta || (n == 6 + meta && !mask))
            return std::string("tcgen05.mma with scale-input-d is not modelled by the executor yet");
        if (mask && op.o[4 + meta].elems.size() != 4u * op.boolOp)
            return "disable-output-lane of .cta_group::" + std::to_string(op.boolOp) + " has " +
                   std::to_string(4 * op.boolOp) + " registers (PTX ISA 9.2 §9.7.16.10.9)";
        return std::nullopt;
    }
    if (what == "commit") {
        op.mode = uint8_t(Tc::Commit);
        if (!has(t, "mbarrier::arrive::one"))
            return std::string("tcgen05.commit needs .mbarrier::arrive::one");
        const bool multicast = has(t, "multicast::cluster");
        op.space = has(t, "shared::cluster") ? Space::SharedCluster : Space::Generic; // [mbar]'s space
        if (n < 1 || op.o[0].kind != OK::Mem || n != (multicast ? 2u : 1u))
            return usage(multicast ? "[mbar], ctaMask" : "[mbar]");
        return std::nullopt;
    }
    if (what == "cp") {
        op.mode = uint8_t(Tc::Cp);
        Result<CpForm> f = parseCp(norm);
        if (!f) return f.error().message + " (" + f.error().ruleRef + ")";
        if (n != 2 || op.o[0].kind != OK::Mem) return usage("[taddr], s-desc");
        return std::nullopt;
    }
    if (what == "shift") {
        op.mode = uint8_t(Tc::Shift);
        if (!has(t, "down")) return std::string("tcgen05.shift needs .down");
        if (n != 1 || op.o[0].kind != OK::Mem) return usage("[taddr]");
        return std::nullopt;
    }
    return "`" + mnemonic + "` is not a tcgen05 instruction the executor models";
}

} // namespace layoutscope::exec
