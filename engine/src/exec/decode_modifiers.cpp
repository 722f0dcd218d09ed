// The executor's decoder, plain instructions: the opcode table and each opcode's modifiers (types,
// rounding, comparison, state space, vector width, saturation ...). decode.cpp splits the opcode on '.'.
#include "exec/cvt_packed.hpp"
#include "exec/decode.hpp"

#include <algorithm>
#include <iterator>

namespace layoutscope::exec {

namespace {

std::optional<Ty> typeOf(std::string_view m) {
    static const std::pair<const char*, Ty> kTypes[] = {
        {"u8", {TK::U, 8}},       {"u16", {TK::U, 16}},       {"u32", {TK::U, 32}},
        {"u64", {TK::U, 64}},     {"s8", {TK::S, 8}},         {"s16", {TK::S, 16}},
        {"s32", {TK::S, 32}},     {"s64", {TK::S, 64}},       {"b8", {TK::B, 8}},
        {"b16", {TK::B, 16}},     {"b32", {TK::B, 32}},       {"b64", {TK::B, 64}},
        {"f32", {TK::F, 32}},     {"f64", {TK::F, 64}},       {"f16", {TK::F16, 16}},
        {"bf16", {TK::BF16, 16}}, {"f16x2", {TK::F16x2, 32}}, {"bf16x2", {TK::BF16x2, 32}},
        {"pred", {TK::Pred, 1}}};
    for (const auto& [n, t] : kTypes)
        if (m == n) return t;
    return std::nullopt;
}

std::optional<Cmp> cmpOf(std::string_view m) {
    static const char* kNames[] = {"eq", "ne",  "lt",  "le",  "gt",  "ge",  "lo",  "ls",  "hi",
                                   "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
    for (size_t i = 0; i < std::size(kNames); ++i)
        if (m == kNames[i]) return static_cast<Cmp>(i + 1);
    return std::nullopt;
}

std::optional<Rnd> rndOf(std::string_view m) {
    static const char* kNames[] = {"rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi", "rs"};
    for (size_t i = 0; i < std::size(kNames); ++i)
        if (m == kNames[i]) return static_cast<Rnd>(i + 1);
    return std::nullopt;
}

std::optional<Space> spaceOf(std::string_view m) {
    if (m == "global") return Space::Global;
    if (m == "shared" || m == "shared::cta") return Space::Shared;
    if (m == "shared::cluster") return Space::SharedCluster;
    if (m == "local") return Space::Local;
    if (m == "const") return Space::Const;
    if (m == "param" || m == "param::entry" || m == "param::func") return Space::Param;
    return std::nullopt;
}

// Qualifiers with no effect on a sequential, single-copy memory: cache and eviction hints, memory
// ordering and scope (every access is sequentially consistent here), `.sync.aligned`.
bool ignorable(std::string_view m) {
    static const char* kNames[] = {"sync",    "aligned", "volatile", "relaxed", "acquire", "release",
                                   "acq_rel", "weak",    "sc",       "gpu",     "cta",     "sys",
                                   "cluster", "nc",      "ca",       "cg",      "cs",      "lu",
                                   "cv",      "wb",      "wt",       "full",    "uni",     "noftz"};
    if (m.rfind("L1::", 0) == 0 || m.rfind("L2::", 0) == 0) return true;
    return std::any_of(std::begin(kNames), std::end(kNames), [&](const char* k) { return m == k; });
}

struct OpcName {
    const char* name;
    Opc opc;
};
constexpr OpcName kOpcodes[] = {
    {"mov", Opc::Mov},
    {"add", Opc::Add},
    {"sub", Opc::Sub},
    {"mul", Opc::Mul},
    {"mad", Opc::Mad},
    {"mul24", Opc::Mul24},
    {"mad24", Opc::Mad24},
    {"div", Opc::Div},
    {"rem", Opc::Rem},
    {"abs", Opc::Abs},
    {"neg", Opc::Neg},
    {"min", Opc::Min},
    {"max", Opc::Max},
    {"and", Opc::And},
    {"or", Opc::Or},
    {"xor", Opc::Xor},
    {"not", Opc::Not},
    {"cnot", Opc::Cnot},
    {"shl", Opc::Shl},
    {"shr", Opc::Shr},
    {"bfe", Opc::Bfe},
    {"bfi", Opc::Bfi},
    {"prmt", Opc::Prmt},
    {"popc", Opc::Popc},
    {"clz", Opc::Clz},
    {"brev", Opc::Brev},
    {"bfind", Opc::Bfind},
    {"setp", Opc::Setp},
    {"selp", Opc::Selp},
    {"slct", Opc::Slct},
    {"cvt", Opc::Cvt},
    {"cvta", Opc::Cvta},
    {"fma", Opc::Fma},
    {"sqrt", Opc::Sqrt},
    {"rsqrt", Opc::Rsqrt},
    {"rcp", Opc::Rcp},
    {"ex2", Opc::Ex2},
    {"lg2", Opc::Lg2},
    {"sin", Opc::Sin},
    {"cos", Opc::Cos},
    {"copysign", Opc::Copysign},
    {"testp", Opc::Testp},
    {"ld", Opc::Ld},
    {"ldu", Opc::Ld},
    {"st", Opc::St},
    {"atom", Opc::Atom},
    {"red", Opc::Red},
    {"shfl", Opc::Shfl},
    {"vote", Opc::Vote},
    {"match", Opc::Match},
    {"redux", Opc::Redux},
    {"activemask", Opc::Activemask},
    {"bra", Opc::Bra},
    {"call", Opc::Call},
    {"ret", Opc::Ret},
    {"exit", Opc::Exit},
    {"bar", Opc::Bar},
    {"barrier", Opc::Bar},
    {"membar", Opc::Nop},
    {"fence", Opc::Nop},
    {"addc", Opc::AddC},
    {"subc", Opc::SubC},
    {"trap", Opc::Trap},
    {"prefetch", Opc::Nop},
    {"prefetchu", Opc::Nop},
    {"nanosleep", Opc::Nop},
    {"pmevent", Opc::Nop},
};

} // namespace

std::optional<Opc> opcodeOf(std::string_view name) {
    for (const auto& n : kOpcodes)
        if (name == n.name) return n.opc;
    return std::nullopt;
}

std::optional<std::string> decodeModifiers(Op& op, const std::vector<std::string>& mods) {
    int types = 0;
    for (const auto& m : mods) {
        if (auto t = typeOf(m)) {
            (types++ == 0 ? op.t : op.t2) = *t;
        } else if (auto pf = op.opc == Opc::Cvt ? packFmtOf(m) : std::nullopt) {
            // cvt's packed narrow formats (cvt_packed.hpp): the register type is a .b container
            (types == 0 ? op.t : op.t2) = Ty{TK::B, static_cast<uint8_t>(packFmtBits(*pf))};
            op.mode = static_cast<uint8_t>(op.mode | uint8_t(*pf) << (types++ == 0 ? 0 : 4));
        } else if (op.opc == Opc::Cvt && m == "relu") {
            op.relu = true;
        } else if (op.opc == Opc::Setp && (m == "and" || m == "or" || m == "xor")) {
            op.boolOp = m == "and" ? 1 : m == "or" ? 2 : 3;
        } else if ((op.opc == Opc::Mul || op.opc == Opc::Mad || op.opc == Opc::Mul24 ||
                    op.opc == Opc::Mad24) &&
                   (m == "lo" || m == "hi" || m == "wide")) {
            op.mode = m == "lo" ? 0 : m == "hi" ? 1 : 2;
        } else if ((op.opc == Opc::Setp || op.opc == Opc::Testp) && op.cmp == Cmp::None && cmpOf(m)) {
            op.cmp = *cmpOf(m);
        } else if (op.opc == Opc::Testp && (m == "finite" || m == "infinite" || m == "number" ||
                                            m == "notanumber" || m == "normal" || m == "subnormal")) {
            op.mode = m == "finite"       ? 0
                      : m == "infinite"   ? 1
                      : m == "number"     ? 2
                      : m == "notanumber" ? 3
                      : m == "normal"     ? 4
                                          : 5;
        } else if (auto r = rndOf(m); r && (*r != Rnd::Rs || op.opc == Opc::Cvt)) { // .rs: cvt only
            op.rnd = *r;
        } else if (auto sp = spaceOf(m)) {
            (op.opc == Opc::Cvta && op.space != Space::Generic ? op.space2 : op.space) = *sp;
        } else if (m == "to" && op.opc == Opc::Cvta) {
            op.toGeneric = false;
        } else if (m == "v2" || m == "v4" || m == "v8") {
            op.vec = static_cast<uint8_t>(m[1] - '0');
        } else if (m == "satfinite" && op.opc == Opc::Cvt) {
            op.satfinite = true; // NaN stays NaN, out of range -> +-max finite (not .sat's [0, 1])
        } else if (m == "sat" || m == "satfinite") {
            op.sat = true;
        } else if (m == "ftz") {
            op.ftz = true;
        } else if (m == "approx") {
            op.approx = true;
        } else if (m == "cc") {
            op.cc = true;
        } else if ((op.opc == Opc::Atom || op.opc == Opc::Red) &&
                   (m == "add" || m == "min" || m == "max" || m == "exch" || m == "cas" || m == "and" ||
                    m == "or" || m == "xor" || m == "inc" || m == "dec")) {
            static const char* kOps[] = {"add", "min", "max", "exch", "cas",
                                         "and", "or",  "xor", "inc",  "dec"};
            for (size_t i = 0; i < std::size(kOps); ++i)
                if (m == kOps[i]) op.atom = static_cast<AtomOp>(i + 1);
        } else if (op.opc == Opc::Shfl && (m == "up" || m == "down" || m == "bfly" || m == "idx")) {
            op.mode = m == "up" ? 0 : m == "down" ? 1 : m == "bfly" ? 2 : 3;
        } else if (op.opc == Opc::Match && (m == "any" || m == "all")) {
            op.mode = m == "all";
        } else if (op.opc == Opc::Redux &&
                   (m == "add" || m == "min" || m == "max" || m == "and" || m == "or" || m == "xor")) {
            op.atom = m == "add"   ? AtomOp::Add
                      : m == "min" ? AtomOp::Min
                      : m == "max" ? AtomOp::Max
                      : m == "and" ? AtomOp::And
                      : m == "or"  ? AtomOp::Or
                                   : AtomOp::Xor;
        } else if (op.opc == Opc::Redux && (m == "abs" || m == "NaN")) {
            op.mode |= m == "abs" ? 1 : 2;
        } else if (op.opc == Opc::Vote && (m == "all" || m == "any" || m == "uni" || m == "ballot")) {
            op.mode = m == "all" ? 0 : m == "any" ? 1 : m == "uni" ? 2 : 3;
        } else if (op.opc == Opc::Prmt &&
                   (m == "f4e" || m == "b4e" || m == "rc8" || m == "ecl" || m == "ecr" || m == "rc16")) {
            static const char* kModes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
            for (size_t i = 0; i < std::size(kModes); ++i)
                if (m == kModes[i]) op.mode = static_cast<uint8_t>(i + 1);
        } else if (op.opc == Opc::Bar && m == "red") {
            op.mode = 8; // bar.red: | 1 popc, 2 and, 3 or (run.cpp)
        } else if (op.opc == Opc::Bar && op.mode == 8 && (m == "popc" || m == "and" || m == "or")) {
            op.mode = uint8_t(8 | (m == "popc" ? 1 : m == "and" ? 2 : 3));
        } else if (op.opc == Opc::Bar && m == "arrive") {
            op.opc = Opc::BarArrive;
        } else if (op.opc == Opc::Bar && m == "warp") {
            op.opc = Opc::BarWarp;
        } else if (m == "shiftamt" || m == "clamp" || m == "wrap") {
            if (m != "shiftamt" || op.opc != Opc::Bfind) return "`." + m + "` is not modelled yet";
            op.mode = 1;
        } else if (!ignorable(m)) {
            return "modifier `." + m + "` is not modelled";
        }
    }
    if (op.opc == Opc::Add && op.cc) op.opc = Opc::AddCC;
    if (op.opc == Opc::Sub && op.cc) op.opc = Opc::SubCC;
    return std::nullopt;
}

} // namespace layoutscope::exec
