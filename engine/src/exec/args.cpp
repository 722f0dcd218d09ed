// Launch text: `X[,Y[,Z]]` extents, `KEY=VALUE` arguments with tensor fills
// (`tensor:DTYPE[D0,...]:index|zeros|random:SEED`), and NumPy .npy files (format version 1.0/2.0, C order,
// little-endian) read and written for --arg / --out / --expect.
#include "exec/machine.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace layoutscope::exec {

namespace {

constexpr const char* kArgRef = "docs/exec.md (launch syntax)";
constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 30;

Diagnostic argError(const std::string& msg, DiagCode code = DiagCode::Syntax) {
    return Diagnostic{Severity::Error, code, {}, msg, kArgRef, Provenance::Assumption};
}

struct DtypeInfo {
    const char* name;
    const char* npy;
    Ty t;
};
constexpr DtypeInfo kDtypes[] = {
    {"f16", "<f2", {TK::F16, 16}}, {"bf16", "<V2", {TK::BF16, 16}}, {"f32", "<f4", {TK::F, 32}},
    {"f64", "<f8", {TK::F, 64}},   {"u8", "|u1", {TK::U, 8}},       {"u16", "<u2", {TK::U, 16}},
    {"u32", "<u4", {TK::U, 32}},   {"u64", "<u8", {TK::U, 64}},     {"s8", "|i1", {TK::S, 8}},
    {"s16", "<i2", {TK::S, 16}},   {"s32", "<i4", {TK::S, 32}},     {"s64", "<i8", {TK::S, 64}},
};

const DtypeInfo* dtype(std::string_view n) {
    for (const auto& d : kDtypes)
        if (n == d.name) return &d;
    return nullptr;
}

bool parseU64(std::string_view s, uint64_t& v) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string_view::npos)
        return false;
    v = std::stoull(std::string(s));
    return true;
}

// The value of element i as the dtype's bits: index -> i (converted, rounded to nearest), random -> a
// small integer (exact in every dtype, so sums and products stay exact for CPU references).
uint64_t elementValue(const DtypeInfo& d, long double v) {
    if (d.t.k == TK::S || d.t.k == TK::U) return static_cast<uint64_t>(static_cast<int64_t>(v));
    return fromLongDouble(v, d.t, Rnd::Rn, false);
}

} // namespace

uint64_t ExecTensor::elementBytes() const {
    const auto* d = exec::dtype(this->dtype);
    return d ? std::max(1, d->t.bits / 8) : 1;
}

Result<Dim3> parseDim3(std::string_view text, bool allowZero) {
    Dim3 d;
    uint32_t* f[3] = {&d.x, &d.y, &d.z};
    size_t start = 0;
    for (int i = 0; i < 3; ++i) {
        const size_t c = text.find(',', start);
        const std::string_view part =
            text.substr(start, c == std::string_view::npos ? text.size() - start : c - start);
        uint64_t v = 0;
        if (!parseU64(part, v) || v > 0x7fffffff || (!allowZero && v == 0))
            return argError("`" + std::string(text) + "` is not X[,Y[,Z]] with integer extents " +
                            (allowZero ? ">= 0" : ">= 1") + " (each below 2^31)");
        *f[i] = uint32_t(v);
        if (c == std::string_view::npos) return d;
        start = c + 1;
    }
    return argError("`" + std::string(text) + "` has more than 3 extents");
}

Result<ExecArg> parseExecArg(std::string_view text) {
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return argError("argument `" + std::string(text) +
                        "` is not KEY=VALUE (KEY: a parameter name or index)");
    ExecArg a;
    a.key = std::string(text.substr(0, eq));
    const std::string v(text.substr(eq + 1));
    if (v.rfind("tensor:", 0) == 0) {
        // tensor:DTYPE[D0,D1,...]:FILL
        const size_t lb = v.find('['), rb = v.find(']');
        if (lb == std::string::npos || rb == std::string::npos || rb < lb)
            return argError("tensor `" + v + "` is not tensor:DTYPE[D0,...]:index|zeros|random:SEED");
        const auto* d = dtype(std::string_view(v).substr(7, lb - 7));
        if (!d) return argError("tensor `" + v + "`: unknown dtype (f16 bf16 f32 f64 u8..u64 s8..s64)");
        ExecTensor& t = a.tensor;
        t.dtype = d->name;
        uint64_t count = 1;
        std::string dims = v.substr(lb + 1, rb - lb - 1);
        for (size_t s = 0;;) {
            const size_t c = dims.find(',', s);
            uint64_t n = 0;
            if (!parseU64(
                    std::string_view(dims).substr(s, c == std::string::npos ? std::string::npos : c - s),
                    n) ||
                n == 0)
                return argError("tensor `" + v + "`: extents are integers >= 1");
            t.shape.push_back(n);
            if (n > kMaxTensorBytes || (count *= n) > kMaxTensorBytes)
                return argError("tensor `" + v + "` is larger than 1 GiB", DiagCode::InvalidValue);
            if (c == std::string::npos) break;
            s = c + 1;
        }
        const uint64_t eb = std::max(1, d->t.bits / 8);
        if (count * eb > kMaxTensorBytes)
            return argError("tensor `" + v + "` is larger than 1 GiB", DiagCode::InvalidValue);
        t.bytes.assign(count * eb, 0);
        const std::string fill = rb + 1 < v.size() && v[rb + 1] == ':' ? v.substr(rb + 2) : "";
        uint64_t seed = 0;
        // `int:SEED` is another name for random:SEED (the values are small integers either way).
        const bool random =
            (fill.rfind("random:", 0) == 0 && parseU64(std::string_view(fill).substr(7), seed)) ||
            (fill.rfind("int:", 0) == 0 && parseU64(std::string_view(fill).substr(4), seed));
        if (fill != "index" && fill != "zeros" && !random)
            return argError("tensor `" + v + "`: the fill is index, zeros, random:SEED or int:SEED");
        if (fill != "zeros")
            for (uint64_t i = 0; i < count; ++i) {
                long double val = static_cast<long double>(i);
                if (random) { // splitmix64: integers in [-4, 4] (unsigned: [0, 8])
                    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
                    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
                    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
                    z ^= z >> 31;
                    val = static_cast<long double>(int64_t(z % 9) - (d->t.k == TK::U ? 0 : 4));
                }
                const uint64_t bits = elementValue(*d, val);
                std::memcpy(t.bytes.data() + i * eb, &bits, eb);
            }
        a.isTensor = true;
        return a;
    }
    if (v.size() > 4 && v.substr(v.size() - 4) == ".npy") {
        auto t = readNpy(v);
        if (!t) return t.diagnostics();
        a.isTensor = true;
        a.tensor = std::move(t).value();
        return a;
    }
    if (v.rfind("fields:", 0) == 0 || v.rfind("tensormap:", 0) == 0) {
        a.structSpec = v; // bound at launch (args_struct.cpp): offsets need the parameter's size
        return a;
    }
    if (v.empty()) return argError("argument `" + a.key + "` has no value");
    a.scalar = v;
    return a;
}

Result<ExecTensor> parseExecTensor(std::string_view text) {
    const size_t eq = text.find('=');
    const std::string_view name = text.substr(0, eq == std::string_view::npos ? 0 : eq);
    const bool nameOk =
        !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
            std::string_view::npos;
    if (!nameOk)
        return argError("--tensor `" + std::string(text.substr(0, 80)) +
                        "` is not NAME=SPEC with NAME a name ([A-Za-z_][A-Za-z0-9_]*)");
    auto a = parseExecArg(text);
    if (!a) return a.diagnostics();
    if (!a->isTensor)
        return argError("--tensor " + std::string(name) +
                        ": the value is tensor:DTYPE[D0,...]:FILL or a .npy file, not `" + a->scalar +
                        a->structSpec + "`");
    ExecTensor t = std::move(a->tensor);
    t.name = std::string(name);
    return t;
}

Result<ExecTensor> readNpy(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return argError("cannot open `" + path + "`", DiagCode::Io);
    std::string data((std::istreambuf_iterator<char>(f)), {});
    if (data.size() > kMaxTensorBytes + 4096)
        return argError("`" + path + "` is larger than 1 GiB", DiagCode::Io);
    if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0)
        return argError("`" + path + "` is not a .npy file (no \\x93NUMPY magic)", DiagCode::InvalidValue);
    const int major = static_cast<unsigned char>(data[6]);
    size_t hlen, hstart;
    if (major == 1)
        hlen = uint8_t(data[8]) | (uint8_t(data[9]) << 8), hstart = 10;
    else if (data.size() >= 12)
        hlen = uint8_t(data[8]) | (uint8_t(data[9]) << 8) | (uint32_t(uint8_t(data[10])) << 16), hstart = 12;
    else
        return argError("`" + path + "`: truncated .npy header", DiagCode::InvalidValue);
    if (hstart + hlen > data.size())
        return argError("`" + path + "`: truncated .npy header", DiagCode::InvalidValue);
    const std::string h = data.substr(hstart, hlen);
    auto field = [&](const std::string& key) {
        const size_t k = h.find("'" + key + "'");
        if (k == std::string::npos) return std::string();
        size_t s = h.find(':', k) + 1;
        while (s < h.size() && h[s] == ' ') ++s;
        if (h[s] == '\'') return h.substr(s + 1, h.find('\'', s + 1) - s - 1);
        if (h[s] == '(') return h.substr(s + 1, h.find(')', s) - s - 1);
        return h.substr(s, h.find_first_of(",}", s) - s);
    };
    ExecTensor t;
    const std::string descr = field("descr");
    for (const auto& d : kDtypes)
        if (descr == d.npy || (descr == "<u1" && std::string(d.npy) == "|u1") ||
            (descr == "<i1" && std::string(d.npy) == "|i1"))
            t.dtype = d.name;
    if (t.dtype.empty())
        return argError("`" + path + "`: dtype `" + descr +
                            "` is not supported (little-endian f2 f4 f8 i1..i8 u1..u8)",
                        DiagCode::InvalidValue);
    if (field("fortran_order") != "False")
        return argError("`" + path + "`: Fortran order is not supported", DiagCode::InvalidValue);
    std::stringstream ss(field("shape"));
    std::string dim;
    uint64_t count = 1;
    while (std::getline(ss, dim, ',')) {
        const std::string d = dim.substr(
            dim.find_first_not_of(' ') == std::string::npos ? dim.size() : dim.find_first_not_of(' '));
        if (d.empty()) continue;
        uint64_t n = 0;
        if (!parseU64(d, n)) return argError("`" + path + "`: malformed shape", DiagCode::InvalidValue);
        t.shape.push_back(n);
        count *= n;
        if (count > kMaxTensorBytes)
            return argError("`" + path + "` is larger than 1 GiB", DiagCode::InvalidValue);
    }
    const uint64_t bytes = count * t.elementBytes();
    if (data.size() - hstart - hlen < bytes)
        return argError("`" + path + "`: the data is shorter than its shape says", DiagCode::InvalidValue);
    t.bytes.assign(data.begin() + long(hstart + hlen), data.begin() + long(hstart + hlen + bytes));
    return t;
}

Status writeNpy(const std::string& path, const ExecTensor& t) {
    const auto* d = dtype(t.dtype);
    std::string shape;
    for (auto n : t.shape) shape += std::to_string(n) + ", ";
    if (t.shape.size() > 1) shape.resize(shape.size() - 2);
    std::string h = "{'descr': '" + std::string(d ? d->npy : "|u1") +
                    "', 'fortran_order': False, 'shape': (" + shape + "), }";
    while ((10 + h.size() + 1) % 64) h += ' ';
    h += '\n';
    std::ofstream f(path, std::ios::binary);
    if (!f) return argError("cannot write `" + path + "`", DiagCode::Io);
    const char head[10] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0, char(h.size() & 0xff), char(h.size() >> 8)};
    f.write(head, 10);
    f << h;
    f.write(reinterpret_cast<const char*>(t.bytes.data()), std::streamsize(t.bytes.size()));
    if (!f) return argError("cannot write `" + path + "`", DiagCode::Io);
    return okStatus();
}

} // namespace layoutscope::exec
