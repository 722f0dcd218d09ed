// Consumer access patterns in scenarios (issue 14 item 2): ld.shared / st.shared / ldmatrix with a
// per-thread address expression of `lane`, `warp` and `tid`, e.g.
//   ld.shared.v4.b32 {%r0, %r1, %r2, %r3}, [sA + (lane % 8) * 128 + ((lane / 8) ^ (lane % 8)) * 16];
//   ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r0, %r1, %r2, %r3}, [sA + lane * 128];
// The warp's 32 addresses are evaluated when the scenario is read; the run counts the access's
// wavefronts with the bank model (banks.hpp). No data moves: the registers are not modelled here.
#include "layoutscope/analysis/banks.hpp"
#include "scenario/parse.hpp"

#include <cctype>
#include <optional>
#include <string>

namespace layoutscope::scn {
namespace {
// GCC and Clang extension; __extension__ keeps -Wpedantic quiet about it (the bounds check needs 80 bits).
__extension__ typedef __int128 Wide;

constexpr const char* kSmemRef = "PTX ISA 9.2 §9.7.9.8 (ld), §9.7.9.10 (st), §9.7.14.5.15 (ldmatrix)";

// A small integer expression: | ^ & << >> + - * / % unary - ( ), numbers, lane/warp/tid, buffer and let
// names.
class Expr {
  public:
    Expr(const Context& ctx, std::string_view s, uint32_t lane, uint32_t warp)
        : m_ctx(ctx), m_s(s), m_lane(lane), m_warp(warp) {}
    std::optional<int64_t> parse(std::string& err) {
        auto v = binary(0, err);
        skip();
        if (v && m_i != m_s.size()) {
            err = "unexpected '" + std::string(1, m_s[m_i]) + "' in the address expression";
            return std::nullopt;
        }
        return v;
    }
    [[nodiscard]] size_t pos() const { return m_i; }

  private:
    void skip() {
        while (m_i < m_s.size() && std::isspace(static_cast<unsigned char>(m_s[m_i]))) ++m_i;
    }
    // Precedence levels, lowest first: | ^ & (<< >>) (+ -) (* / %).
    int level(std::string_view op) const {
        if (op == "|") return 0;
        if (op == "^") return 1;
        if (op == "&") return 2;
        if (op == "<<" || op == ">>") return 3;
        if (op == "+" || op == "-") return 4;
        return 5;
    }
    std::string peekOp() {
        skip();
        if (m_i >= m_s.size()) return {};
        if (m_s.substr(m_i, 2) == "<<" || m_s.substr(m_i, 2) == ">>") return std::string(m_s.substr(m_i, 2));
        const char c = m_s[m_i];
        return std::string("|^&+-*/%").find(c) != std::string::npos ? std::string(1, c) : std::string();
    }
    std::optional<int64_t> binary(int minLevel, std::string& err) {
        auto lhs = unary(err);
        while (lhs) {
            const std::string op = peekOp();
            if (op.empty() || level(op) < minLevel) break;
            m_i += op.size();
            auto rhs = binary(level(op) + 1, err);
            if (!rhs) return std::nullopt;
            const int64_t a = *lhs, b = *rhs;
            if ((op == "/" || op == "%") && b == 0) {
                err = "division by zero in the address expression";
                return std::nullopt;
            }
            if ((op == "<<" || op == ">>") && (b < 0 || b > 31)) {
                err = "shift by " + std::to_string(b) + " (0..31) in the address expression";
                return std::nullopt;
            }
            // In 128 bits, then bounded: no intermediate value may leave +-2^40 (no signed overflow).
            const Wide x = a, y = b;
            const Wide r = op == "|"    ? (x | y)
                           : op == "^"  ? (x ^ y)
                           : op == "&"  ? (x & y)
                           : op == "<<" ? x * (Wide(1) << int(b))
                           : op == ">>" ? (x >> int(b))
                           : op == "+"  ? x + y
                           : op == "-"  ? x - y
                           : op == "*"  ? x * y
                           : op == "/"  ? x / y
                                        : x % y;
            if (r >= kLimit || r <= -kLimit) {
                err = "the address expression leaves +-2^40 (overflow)";
                return std::nullopt;
            }
            lhs = int64_t(r);
        }
        return lhs;
    }
    std::optional<int64_t> unary(std::string& err) {
        skip();
        if (++m_depth > 64) { // bounded recursion: a fuzzed "((((..." must not exhaust the stack
            err = "the address expression nests deeper than 64 levels";
            return std::nullopt;
        }
        struct Leave {
            int& d;
            ~Leave() { --d; }
        } leave{m_depth};
        if (m_i >= m_s.size()) {
            err = "the address expression ends early";
            return std::nullopt;
        }
        if (m_s[m_i] == '-') {
            ++m_i;
            auto v = unary(err);
            return v ? std::optional<int64_t>(-*v) : std::nullopt; // |v| < 2^40: no overflow
        }
        if (m_s[m_i] == '(') {
            ++m_i;
            auto v = binary(0, err);
            skip();
            if (v && (m_i >= m_s.size() || m_s[m_i] != ')')) {
                err = "expected ')' in the address expression";
                return std::nullopt;
            }
            ++m_i;
            return v;
        }
        size_t j = m_i;
        while (j < m_s.size() && (std::isalnum(static_cast<unsigned char>(m_s[j])) || m_s[j] == '_')) ++j;
        if (j == m_i) {
            err = "unexpected '" + std::string(1, m_s[m_i]) + "' in the address expression";
            return std::nullopt;
        }
        const std::string w(m_s.substr(m_i, j - m_i));
        m_i = j;
        if (std::isdigit(static_cast<unsigned char>(w[0]))) {
            try {
                size_t used = 0;
                const int64_t v = std::stoll(w, &used, 0);
                if (used == w.size() && v >= 0 && v < (int64_t(1) << 32)) return v;
            } catch (...) {
            }
            err = "'" + w + "' is not a number below 2^32";
            return std::nullopt;
        }
        if (w == "lane") return m_lane;
        if (w == "warp") return m_warp;
        if (w == "tid") return 32 * int64_t(m_warp) + m_lane;
        if (const ScenarioBuffer* b = m_ctx.s.findBuffer(w)) return b->addr;
        if (const NameInfo* n = m_ctx.lookup(w); n && n->kind == NameKind::Let) {
            if (n->value >= kLimit || n->value <= -kLimit) {
                err =
                    "let " + w + " = " + std::to_string(n->value) + " is too large for an address expression";
                return std::nullopt;
            }
            return n->value;
        }
        err = "'" + w + "' is not lane, warp, tid, an smem buffer or a let name";
        return std::nullopt;
    }

    static constexpr int64_t kLimit = int64_t(1) << 40;
    const Context& m_ctx;
    std::string_view m_s;
    uint32_t m_lane, m_warp;
    size_t m_i = 0;
    int m_depth = 0;
};

// st.shared's value operand after the address, `, %r3` or `, {%r0, %r1, %r2, %r3}`: its operand names in
// order; nullopt when it is not of that form (an unclosed brace, an empty element, no operand).
std::optional<std::vector<std::string_view>> storeValueOperands(std::string_view rest) {
    auto trim = [](std::string_view v) {
        while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
        while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == ';')) v.remove_suffix(1);
        return v;
    };
    rest = trim(rest);
    if (rest.empty() || rest.front() != ',') return std::nullopt;
    rest = trim(rest.substr(1));
    const bool list = !rest.empty() && rest.front() == '{';
    if (list) {
        if (rest.back() != '}') return std::nullopt;
        rest = rest.substr(1, rest.size() - 2);
    }
    std::vector<std::string_view> names;
    for (size_t start = 0;;) {
        const size_t comma = rest.find(',', start);
        const std::string_view name =
            trim(rest.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (name.empty() || name.find_first_of(" \t{}") != std::string_view::npos) return std::nullopt;
        names.push_back(name);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    if (!list && names.size() != 1) return std::nullopt;
    return names;
}

// The register numbers of the value operands when every one is %rN with N < 128 (the scenario's register
// model, `regs`) and each element is at most 4 bytes; empty otherwise (the store's data is then unknown).
std::vector<uint32_t> storeSourceRegisters(const std::vector<std::string_view>& names, uint32_t widthBytes) {
    std::vector<uint32_t> regs;
    for (std::string_view n : names) {
        if (n.size() < 3 || n.size() > 5 || n.substr(0, 2) != "%r") return {};
        uint32_t v = 0;
        for (char c : n.substr(2)) {
            if (c < '0' || c > '9') return {};
            v = 10 * v + uint32_t(c - '0');
        }
        if (v >= kScenarioRegsPerThread) return {};
        regs.push_back(v);
    }
    if (regs.empty() || widthBytes % regs.size() != 0 || widthBytes / regs.size() > 4) return {};
    return regs;
}

// Bytes per thread of "ld.shared[.v2|.v4].TYPE" / "st.shared..." (0: not a form we know).
uint32_t accessWidth(std::string_view opcode) {
    uint32_t vec = 1;
    if (opcode.find(".v2.") != std::string_view::npos) vec = 2;
    if (opcode.find(".v4.") != std::string_view::npos) vec = 4;
    const size_t dot = opcode.rfind('.');
    const std::string_view type = opcode.substr(dot + 1);
    uint32_t bytes = 0;
    for (auto [t, b] : {std::pair<std::string_view, uint32_t>{"b8", 1},
                        {"u8", 1},
                        {"s8", 1},
                        {"b16", 2},
                        {"u16", 2},
                        {"s16", 2},
                        {"f16", 2},
                        {"b32", 4},
                        {"u32", 4},
                        {"s32", 4},
                        {"f32", 4},
                        {"b64", 8},
                        {"u64", 8},
                        {"s64", 8},
                        {"f64", 8},
                        {"b128", 16}})
        if (type == t) bytes = b;
    return bytes * vec;
}

} // namespace

} // namespace layoutscope::scn

namespace layoutscope {

Result<BankReport> smemAccessWavefronts(const SmemAccess& a) {
    WarpSmemAccess w;
    w.op = a.kind == SmemAccess::Kind::Ldmatrix ? SmemOp::LdMatrix
           : a.kind == SmemAccess::Kind::Store  ? SmemOp::Store
                                                : SmemOp::Load;
    w.matrices = a.kind == SmemAccess::Kind::Ldmatrix ? uint32_t(__builtin_popcount(a.activeMask)) / 8 : 1;
    w.addr = a.addr;
    w.activeMask = a.activeMask;
    w.widthBytes = a.widthBytes;
    return countBankWavefronts(w);
}

} // namespace layoutscope

namespace layoutscope::scn {

bool isSmemAccess(std::string_view text) {
    const size_t b = text.find_first_not_of(" \t");
    if (b == std::string_view::npos) return false;
    const std::string_view t = text.substr(b);
    return t.rfind("ld.shared", 0) == 0 || t.rfind("st.shared", 0) == 0 || t.rfind("ldmatrix", 0) == 0;
}

void lowerSmemAccess(Context& ctx, std::string_view text, int line, int column) {
    const size_t b = text.find_first_not_of(" \t");
    const std::string_view t = text.substr(b);
    const std::string_view opcode = t.substr(0, t.find_first_of(" \t"));
    const SourceSpan opSpan{line, column + int(b), int(opcode.size())};
    auto fail = [&](SourceSpan sp, std::string msg) {
        ctx.error(DiagCode::InvalidValue, sp, std::move(msg), kSmemRef, Provenance::PtxText);
    };
    SmemAccess acc;
    acc.kind = t.rfind("ldmatrix", 0) == 0 ? SmemAccess::Kind::Ldmatrix
               : t[0] == 's'               ? SmemAccess::Kind::Store
                                           : SmemAccess::Kind::Load;
    uint32_t threads = 32;
    if (acc.kind == SmemAccess::Kind::Ldmatrix) {
        // ldmatrix.sync.aligned.m8n8.xN[.trans].shared[::cta].b16: threads 0 .. 8N-1 give 16-byte row
        // addresses.
        const bool x1 = opcode.find(".x1") != std::string_view::npos,
                   x2 = opcode.find(".x2") != std::string_view::npos,
                   x4 = opcode.find(".x4") != std::string_view::npos;
        if (opcode.rfind("ldmatrix.sync.aligned.m8n8.", 0) != 0 || int(x1) + int(x2) + int(x4) != 1 ||
            opcode.find(".shared") == std::string_view::npos || opcode.substr(opcode.size() - 4) != ".b16") {
            fail(opSpan,
                 "expected ldmatrix.sync.aligned.m8n8.x1|x2|x4[.trans].shared.b16 (the forms modelled)");
            return;
        }
        threads = x1 ? 8 : x2 ? 16 : 32;
        acc.widthBytes = 16;
    } else {
        acc.widthBytes = accessWidth(opcode);
        if (acc.widthBytes == 0 || acc.widthBytes > 16) {
            fail(opSpan, "'" + std::string(opcode) +
                             "': expected ld.shared / st.shared [.v2|.v4] .b8..b128 with at "
                             "most 16 bytes per thread");
            return;
        }
    }
    // The address operand: the last [...] of the instruction.
    const size_t open = t.rfind('['), close = t.rfind(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
        fail(opSpan, "expected a shared address [EXPR] of lane, warp, tid, buffers and lets");
        return;
    }
    const std::string_view expr = t.substr(open + 1, close - open - 1);
    const SourceSpan exprSpan{line, column + int(b + open + 1), int(expr.size())};
    acc.activeMask = threads == 32 ? 0xFFFFFFFFu : (1u << threads) - 1;
    for (uint32_t lane = 0; lane < 32; ++lane) {
        std::string err;
        Expr e(ctx, expr, lane, ctx.issuingWarp);
        const auto v = e.parse(err);
        if (!v) {
            fail({exprSpan.line, exprSpan.column + int(e.pos()), 1}, err);
            return;
        }
        if (*v < 0 || *v >= int64_t(kSmemBytesPerCta)) {
            fail(exprSpan, "lane " + std::to_string(lane) + " addresses byte " + std::to_string(*v) +
                               ", outside the CTA's 228 KiB of shared memory");
            return;
        }
        acc.addr[lane] = uint32_t(*v);
    }
    if (acc.kind == SmemAccess::Kind::Store) {
        const auto names = storeValueOperands(t.substr(close + 1));
        const size_t vec = opcode.find(".v4.") != std::string_view::npos   ? 4
                           : opcode.find(".v2.") != std::string_view::npos ? 2
                                                                           : 1;
        if (!names || names->size() != vec) {
            fail(opSpan,
                 "expected st.shared's value after the address: `, %rN`, or `, {%rA, %rB, ...}` with one "
                 "register per vector element (" +
                     std::to_string(vec) + " for `" + std::string(opcode) + "`)");
            return;
        }
        acc.srcRegs = storeSourceRegisters(*names, acc.widthBytes);
    }
    ScenarioInstr out;
    out.text = std::string(t);
    out.span = {line, column + int(b), int(t.size())};
    out.cta = ctx.issuingCta;
    out.warp = ctx.issuingWarp;
    out.kind = ScenarioInstrKind::NoOp;
    out.smemAccess = acc;
    ctx.s.instrs.push_back(std::move(out));
}

} // namespace layoutscope::scn
