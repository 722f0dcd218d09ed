// runKernel: check a launch against the kernel (entry, argument count and types, grid covering --cta,
// shared memory), lay out the parameters per the kernel's .param declarations (PTX ISA 9.2 §5.1.6.1),
// place the tensors at stable global addresses, build the CTAs and warps, run, and collect the tensors.
#include "exec/args_struct.hpp"
#include "exec/order.hpp"
#include "exec/record.hpp"
#include "layoutscope/async/timeline.hpp"

#include <algorithm>
#include <cstring>

namespace layoutscope::exec {

bool runWarps(Machine& m, const ExecOptions& opt, uint64_t& steps); // run.cpp

namespace {

constexpr uint64_t kMaxSmem =
    227 * 1024; // sm_90 / sm_100: 227 KiB per CTA (cudaDevAttrMaxSharedMemoryPerBlockOptin)
constexpr const char* kLaunchRef =
    "CUDA Programming Guide: launch limits (1024 threads per CTA, 227 KiB shared memory)";

Diagnostic launchError(const std::string& msg, DiagCode code = DiagCode::InvalidValue) {
    return Diagnostic{Severity::Error, code, {}, msg, kLaunchRef, Provenance::Assumption};
}

std::string dimText(Dim3 d) {
    return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z);
}

Result<const PtxFunction*> pickEntry(const PtxModule& mod, const std::string& entry) {
    const auto entries = mod.entries();
    if (entries.empty()) return launchError("the module defines no .entry (kernel)", DiagCode::UnknownName);
    std::string names;
    for (size_t i = 0; i < entries.size(); ++i)
        names += (i ? ", " : "") + std::to_string(i) + ": " + entries[i]->name;
    if (entry.empty()) {
        if (entries.size() == 1) return entries[0];
        return launchError("the module has " + std::to_string(entries.size()) +
                               " kernels; pick one with --entry (" + names + ")",
                           DiagCode::UnknownName);
    }
    for (const auto* e : entries)
        if (e->name == entry) return e;
    if (entry.find_first_not_of("0123456789") == std::string::npos && entry.size() < 9) {
        const size_t i = std::stoul(entry);
        if (i < entries.size()) return entries[i];
    }
    return launchError("unknown entry `" + entry + "`; the module's kernels are " + names,
                       DiagCode::UnknownName);
}

Status bindScalar(const PtxParam& prm, const ExecArg& a, uint8_t* dst) {
    const std::string& t = prm.type;
    const std::string& v = a.scalar;
    char* end = nullptr;
    if (t == ".f32" || t == ".f64") {
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end)
            return launchError("argument `" + a.key + "`: `" + v + "` is not a number for the " + t +
                               " parameter `" + prm.name + "`");
        if (t == ".f32") {
            const float f = static_cast<float>(d);
            std::memcpy(dst, &f, 4);
        } else {
            std::memcpy(dst, &d, 8);
        }
        return okStatus();
    }
    if (prm.bytes > 8)
        return launchError("parameter `" + prm.name + "` is a " + std::to_string(prm.bytes) + "-byte " + t +
                           " array (a struct or CUtensorMap): give it as fields:OFF=TYPE:VALUE,... or "
                           "tensormap:DESC (docs/exec.md)");
    const bool neg = !v.empty() && v[0] == '-';
    const uint64_t x = neg ? uint64_t(std::strtoll(v.c_str(), &end, 0)) : std::strtoull(v.c_str(), &end, 0);
    if (v.empty() || *end)
        return launchError("argument `" + a.key + "`: `" + v + "` is not an integer for the " + t +
                           " parameter `" + prm.name + "`");
    std::memcpy(dst, &x, prm.bytes);
    return okStatus();
}

} // namespace

Result<ExecResult> runKernel(const PtxModule& mod, const Launch& L, const ExecOptions& opt) {
    auto e = pickEntry(mod, L.entry);
    if (!e) return e.diagnostics();
    const PtxFunction& kf = **e;
    auto prog = decodeModule(mod);
    if (!prog) return prog.diagnostics();
    const Program& p = *prog;
    // The launch shape.
    if (L.block.count() > 1024)
        return launchError("--block " + dimText(L.block) + " has " + std::to_string(L.block.count()) +
                           " threads; a CTA has at most 1024");
    const Dim3 cl = L.cluster;
    if (L.grid.x % cl.x || L.grid.y % cl.y || L.grid.z % cl.z)
        return launchError("--grid " + dimText(L.grid) + " is not a multiple of --cluster " + dimText(cl));
    if (cl.count() > 16)
        return launchError("--cluster " + dimText(cl) + " has " + std::to_string(cl.count()) +
                           " CTAs; at most 16 (8 portable)");
    if (L.cta.x >= L.grid.x || L.cta.y >= L.grid.y || L.cta.z >= L.grid.z)
        return launchError("--cta " + dimText(L.cta) + " is outside --grid " + dimText(L.grid));
    const uint64_t smem = p.dynSmemOffset + L.dynamicSmem;
    if (p.staticSmem + L.dynamicSmem > kMaxSmem)
        return launchError("shared memory " + std::to_string(p.staticSmem) + " static + " +
                           std::to_string(L.dynamicSmem) +
                           " dynamic bytes exceeds the 227 KiB (232448 bytes) a CTA may use");
    // Arguments: one per parameter, by name or index.
    std::vector<const ExecArg*> bound(kf.params.size(), nullptr);
    for (const auto& a : L.args) {
        size_t idx = kf.params.size();
        for (size_t i = 0; i < kf.params.size(); ++i)
            if (kf.params[i].name == a.key) idx = i;
        if (idx == kf.params.size() && !a.key.empty() &&
            a.key.find_first_not_of("0123456789") == std::string::npos && a.key.size() < 9)
            idx = std::stoul(a.key);
        if (idx >= kf.params.size())
            return launchError("argument `" + a.key + "`: `" + kf.name +
                                   "` has no such parameter (it takes " + std::to_string(kf.params.size()) +
                                   ", indexed from 0)",
                               DiagCode::UnknownName);
        if (bound[idx])
            return launchError("parameter " + std::to_string(idx) + " (`" + kf.params[idx].name +
                               "`) is given twice");
        bound[idx] = &a;
    }
    for (size_t i = 0; i < bound.size(); ++i)
        if (!bound[i])
            return launchError("`" + kf.name + "` takes " + std::to_string(kf.params.size()) +
                               " parameters; parameter " + std::to_string(i) + " (`" + kf.params[i].name +
                               "`, " + kf.params[i].type + ") has no --arg");
    Machine m{p, L, {}, {}, {}, {}, {}, {}, {}, {}, 0, std::nullopt, 0, {}, {}};
    const auto& fn = p.functions[size_t(&kf - mod.functions.data())];
    m.sm = mod.target.sm;
    m.ptxVersion = mod.target.ptxMajor * 10 + mod.target.ptxMinor;
    uint64_t paramBytes = 0;
    for (int s : fn.params) paramBytes = std::max(paramBytes, p.symbols[s].offset + p.symbols[s].bytes);
    m.kernelParams.assign(paramBytes, 0);
    uint64_t next = kGlobalBase;
    auto place = [&](ExecTensor t) {
        t.address = next;
        next += (t.bytes.size() + 0xffff) / 0x10000 * 0x10000 + 0x10000; // 64 KiB apart, a gap between
        m.tensors.push_back(std::move(t));
        return m.tensors.back().address;
    };
    // Tensors first (arguments, then --tensor), so struct `ptr` fields and tensor maps can name any.
    for (size_t i = 0; i < bound.size(); ++i) {
        const ExecArg& a = *bound[i];
        const PtxParam& prm = kf.params[i];
        if (!a.isTensor) continue;
        if (prm.bytes != 8)
            return launchError("argument `" + a.key + "` is a tensor but parameter `" + prm.name + "` is " +
                               prm.type + " (a pointer parameter is .u64 / .b64)");
        ExecTensor t = a.tensor;
        t.name = a.key;
        const uint64_t addr = place(std::move(t));
        std::memcpy(m.kernelParams.data() + p.symbols[fn.params[i]].offset, &addr, 8);
    }
    for (const auto& t : L.tensors) {
        for (const auto& u : m.tensors)
            if (u.name == t.name)
                return launchError("--tensor " + t.name + ": a tensor of that name is already given");
        place(t);
    }
    for (size_t i = 0; i < bound.size(); ++i) {
        const ExecArg& a = *bound[i];
        const PtxParam& prm = kf.params[i];
        uint8_t* dst = m.kernelParams.data() + p.symbols[fn.params[i]].offset;
        if (a.isTensor) continue;
        if (!a.structSpec.empty()) {
            if (auto st = bindStruct(prm, a, m.tensors, mod.target.sm, dst); !st) return st.diagnostics();
        } else if (auto st = bindScalar(prm, a, dst); !st) {
            return st.diagnostics();
        }
    }
    // CTAs: the cluster of --cta (or --cta alone), ranks x-fastest.
    const Dim3 base{L.cta.x / cl.x * cl.x, L.cta.y / cl.y * cl.y, L.cta.z / cl.z * cl.z};
    m.threadsPerCta = uint32_t(L.block.count());
    for (uint32_t z = 0; z < cl.z; ++z)
        for (uint32_t y = 0; y < cl.y; ++y)
            for (uint32_t x = 0; x < cl.x; ++x) {
                Cta c;
                c.id = {base.x + x, base.y + y, base.z + z};
                c.inCluster = {x, y, z};
                c.rank = x + cl.x * (y + cl.y * z);
                c.smem.assign(smem, 0);
                c.liveThreads = m.threadsPerCta;
                m.ctas.push_back(std::move(c));
            }
    const uint64_t threads = uint64_t(m.ctas.size()) * m.threadsPerCta;
    if (threads * (p.localBytes + p.threadParamBytes) > (uint64_t(1) << 30) ||
        uint64_t(p.regSlots) * threads * 8 > (uint64_t(1) << 31))
        return launchError("the run would need more than 1 GiB of local/param memory or 2 GiB of registers");
    m.local.assign(threads * p.localBytes, 0);
    m.localFrames.resize(threads);
    m.maxCallDepth = opt.maxCallDepth;
    m.maxRecursionBytes = opt.maxRecursionBytes;
    m.threadParams.assign(threads * p.threadParamBytes, 0);
    m.constMem = p.constMem;
    m.moduleGlobals.assign(p.moduleGlobalBytes, 0);
    for (uint32_t c = 0; c < m.ctas.size(); ++c)
        for (uint32_t t0 = 0; t0 < m.threadsPerCta; t0 += 32) {
            Warp w;
            w.cta = c;
            w.firstThread = t0;
            const uint32_t n = std::min<uint32_t>(32, m.threadsPerCta - t0);
            w.valid = n == 32 ? ~0u : (1u << n) - 1;
            w.pc.fill(fn.firstPc);
            w.regs.assign(size_t(p.regSlots) * 32, 0);
            m.warps.push_back(std::move(w));
        }
    if (opt.order) m.order = std::make_unique<async::Model>();
    std::optional<Recorder> rec;
    std::vector<ExecTensor> initialTensors;
    if (opt.record) {
        rec.emplace();
        m.rec = &*rec;
        initialTensors = m.tensors;
    }
    uint64_t steps = 0;
    if (!runWarps(m, opt, steps) || !finishTcgen05(m)) return *m.error;
    auto timeline = std::make_shared<async::Timeline>();
    std::vector<Diagnostic> orderFindings = orderFinish(m, timeline.get());
    // A recorded run keeps its order errors as notes (error severity): the recording still shows the run,
    // and the kernel scenario reports them (loadScenario).
    if (!opt.record && !orderFindings.empty() && orderFindings.front().severity == Severity::Error)
        return orderFindings;
    ExecResult r;
    r.tensors = std::move(m.tensors);
    r.threadInstructions = m.threadInstructions;
    r.warpInstructions = steps;
    r.ctas = uint32_t(m.ctas.size());
    r.threads = uint32_t(threads);
    r.notes = std::move(m.notes);
    if (rec && m.order) { // the order findings follow the executor's notes
        for (async::RaceLink& rl : timeline->races) rl.finding += r.notes.size();
        r.timeline = std::move(timeline);
    }
    for (auto& d : orderFindings) r.notes.push_back(std::move(d));
    if (rec) {
        m.tensors = r.tensors; // the recording reads the tensors' addresses
        r.recording = recordingText(
            m, *rec,
            "kernel " + (kf.name.size() > 48 ? kf.name.substr(0, 45) + "..." : kf.name) + " of " +
                std::to_string(m.ctas.size()) + " CTA(s) x " + std::to_string(m.threadsPerCta) + " threads");
        r.initialTensors = std::move(initialTensors);
        if (rec->pokesTruncated || rec->truncated)
            rec->notes.push_back(rec->truncated
                                     ? "everything past 15 MiB of recording text (a shorter run records all)"
                                     : "thread stores past 10 MiB of recording text (the views show "
                                       "the shared and global bytes they wrote as they were before)");
        for (const std::string& n : rec->notes)
            r.notes.push_back(Diagnostic{Severity::Warning,
                                         DiagCode::Unsupported,
                                         {},
                                         "the recording leaves out " + n,
                                         "docs/exec.md (kernel scenarios)",
                                         Provenance::ToolFormat});
    }
    return r;
}

} // namespace layoutscope::exec
