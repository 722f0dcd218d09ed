// `layoutscope-cli exec MODULE.ptx ...`: run one CTA (or one cluster) of a kernel through the PTX
// executor (issue 22, docs/exec.md), write global tensors as .npy and compare them with expectations.
#include "cli/commands.hpp"
#include "layoutscope/exec/exec.hpp"

#include <cmath>
#include <cstring>
#include <fstream>
#include <map>

namespace layoutscope::cli {

namespace {

using exec::ExecTensor;

int usageError(std::ostream& err, const std::string& msg) {
    err << "exec: " << msg << "\n" << usageOf("exec");
    return kExitUsage;
}

long double elementAt(const ExecTensor& t, uint64_t i) {
    const uint64_t eb = t.elementBytes();
    uint64_t bits = 0;
    std::memcpy(&bits, t.bytes.data() + i * eb, eb);
    const std::string& d = t.dtype;
    if (d == "f32") {
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }
    if (d == "f64") {
        double f;
        std::memcpy(&f, &bits, 8);
        return f;
    }
    if (d == "f16" || d == "bf16") {
        const int man = d == "f16" ? 10 : 7, ex = d == "f16" ? 5 : 8, emax = (1 << (ex - 1)) - 1;
        const uint64_t m = bits & ((1u << man) - 1), e = (bits >> man) & ((1u << ex) - 1);
        long double v = e == 0 ? std::ldexp((long double)m, 1 - emax - man)
                               : std::ldexp((long double)(m | (1u << man)), int(e) - emax - man);
        if (e == uint64_t((1 << ex) - 1)) v = m ? NAN : INFINITY;
        return (bits >> (man + ex)) & 1 ? -v : v;
    }
    if (d[0] == 's') {
        const int b = int(eb * 8);
        return (long double)(b == 64 ? int64_t(bits) : int64_t(bits << (64 - b)) >> (64 - b));
    }
    return (long double)bits;
}

// C = gemm(A, B[, LAYOUT]): LAYOUT's first letter says how A is given, n: A[M,K], t: A[K,M]; its second
// how B is, n: B[K,N], t: B[N,K] (nn is the default). The exact product of the inputs, then rounded to
// C's dtype (exact for integer-valued inputs of moderate size).
bool gemmExpect(const std::string& spec, const std::map<std::string, const ExecTensor*>& byName,
                const ExecTensor& c, std::ostream& err) {
    const size_t lp = spec.find('('), rp = spec.rfind(')');
    std::vector<std::string> parts;
    for (size_t s = lp + 1; s < rp;) {
        const size_t e = std::min(spec.find(',', s), rp);
        parts.push_back(spec.substr(s, e - s));
        s = e + 1;
    }
    if (parts.size() < 2 || parts.size() > 3 || !byName.count(parts[0]) || !byName.count(parts[1]) ||
        (parts.size() == 3 && parts[2] != "nn" && parts[2] != "nt" && parts[2] != "tn" && parts[2] != "tt")) {
        err << "exec: --expect " << spec << ": write gemm(A,B[,nn|nt|tn|tt]) with A and B tensors\n";
        return false;
    }
    const ExecTensor& a = *byName.at(parts[0]);
    const ExecTensor& b = *byName.at(parts[1]);
    const bool nt = parts.size() == 3 && parts[2][1] == 't', ta = parts.size() == 3 && parts[2][0] == 't';
    if (a.shape.size() != 2 || b.shape.size() != 2 || c.shape.size() != 2) {
        err << "exec: --expect " << spec << ": A, B and C must be 2-D\n";
        return false;
    }
    const uint64_t M = a.shape[ta ? 1 : 0], K = a.shape[ta ? 0 : 1], N = nt ? b.shape[0] : b.shape[1];
    if ((nt ? b.shape[1] : b.shape[0]) != K || c.shape[0] != M || c.shape[1] != N) {
        err << "exec: --expect " << spec << ": shapes do not match (A " << M << "x" << K << ", C "
            << c.shape[0] << "x" << c.shape[1] << ")\n";
        return false;
    }
    uint64_t bad = 0;
    for (uint64_t i = 0; i < M; ++i)
        for (uint64_t j = 0; j < N; ++j) {
            long double s = 0;
            for (uint64_t k = 0; k < K; ++k)
                s += elementAt(a, ta ? k * M + i : i * K + k) * elementAt(b, nt ? j * K + k : k * N + j);
            const long double got = elementAt(c, i * N + j);
            if (got != s && !(std::isnan(got) && std::isnan(s)) && bad++ < 8)
                err << "exec: C(" << i << "," << j << ") is " << double(got) << ", the CPU reference "
                    << double(s) << "\n";
        }
    if (bad) err << "exec: --expect " << spec << ": " << bad << " of " << M * N << " elements differ\n";
    return bad == 0;
}

} // namespace

int cmdExec(const Args& args, std::ostream& out, std::ostream& err) {
    std::vector<std::string> words;
    std::string recordPath;
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--record") { // the run as a scenario (docs/exec.md "Kernel scenarios")
            if (i + 1 >= args.size()) return usageError(err, "missing value for '--record'");
            recordPath = args[++i];
            continue;
        }
        words.push_back(args[i]);
    }
    auto spec = exec::parseLaunchWords(words);
    if (!spec) {
        const Diagnostic& d = spec.error();
        if (d.code == DiagCode::Syntax && d.ruleRef == "docs/exec.md (Launch)")
            return usageError(err, d.message);
        printDiagnostics(err, spec.diagnostics(), "");
        return d.code == DiagCode::Syntax ? kExitUsage : kExitDiagnostics;
    }
    const std::string& file = spec->module;
    const exec::Launch& launch = spec->launch;
    exec::ExecOptions options;
    options.order = spec->options.order;
    options.record = !recordPath.empty();
    const auto& outs = spec->outs;
    const auto& expects = spec->expects;
    auto text = readPtxModuleFile(file);
    if (!text) return printDiagnostics(err, text.diagnostics(), file), kExitDiagnostics;
    auto mod = readPtxModule(*text);
    if (!mod) return printDiagnostics(err, mod.diagnostics(), file), kExitDiagnostics;
    auto r = exec::runKernel(*mod, launch, options);
    if (!r) return printDiagnostics(err, r.diagnostics(), file), kExitDiagnostics;
    printDiagnostics(err, r->notes, file);
    if (!recordPath.empty()) {
        std::ofstream f(recordPath, std::ios::binary);
        if (!(f << r->recording))
            return err << "exec: cannot write the recording to " << recordPath << "\n", kExitDiagnostics;
        out << "recorded the run as a scenario in " << recordPath << "\n";
    }
    out << file << ": ran " << r->ctas << " CTA" << (r->ctas == 1 ? "" : "s") << ", " << r->threads
        << " threads: " << r->threadInstructions << " thread-instructions (" << r->warpInstructions
        << " warp steps)\n";
    std::map<std::string, const ExecTensor*> byName;
    for (const auto& t : r->tensors) byName[t.name] = &t;
    int status = kExitOk;
    for (const auto& [name, path] : outs) {
        if (!byName.count(name))
            return usageError(err, "--out " + name + ": no tensor argument of that name");
        if (auto st = exec::writeNpy(path, *byName[name]); !st)
            return printDiagnostics(err, st.diagnostics(), ""), kExitDiagnostics;
        out << "wrote " << name << " to " << path << "\n";
    }
    for (const auto& [name, spec] : expects) {
        if (!byName.count(name))
            return usageError(err, "--expect " + name + ": no tensor argument of that name");
        const ExecTensor& got = *byName[name];
        bool ok;
        if (spec.rfind("gemm(", 0) == 0) {
            ok = gemmExpect(spec, byName, got, err);
        } else {
            auto ref = exec::readNpy(spec);
            if (!ref) return printDiagnostics(err, ref.diagnostics(), spec), kExitDiagnostics;
            ok = ref->bytes == got.bytes;
            if (!ok) {
                uint64_t first = 0;
                while (first < std::min(ref->bytes.size(), got.bytes.size()) &&
                       ref->bytes[first] == got.bytes[first])
                    ++first;
                err << "exec: --expect " << name << "=" << spec << ": differs (" << got.bytes.size()
                    << " bytes vs " << ref->bytes.size() << "; first difference at byte " << first
                    << ", element " << first / got.elementBytes() << ")\n";
            }
        }
        out << "expect " << name << ": " << (ok ? "ok" : "MISMATCH") << "\n";
        if (!ok) status = kExitDiagnostics;
    }
    return status;
}

} // namespace layoutscope::cli
