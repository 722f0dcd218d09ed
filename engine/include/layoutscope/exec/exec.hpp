#pragma once
/// The PTX kernel executor (issue 22, "Run the real kernel"): runs every thread of one CTA (or of one
/// cluster) of a kernel through its PTX, a warp's 32 lanes per instruction, deterministically.
/// docs/exec.md describes the model: decode once, per-thread PCs grouped by PC (independent thread
/// scheduling), round-robin over warps, `bar.sync` per CTA, memory spaces and the address map.
///
/// [SECTION] index
///   Launch    Dim3, ExecTensor, ExecArg, Launch, parseDim3, parseExecArg, parseExecTensor
///   Running   ExecOptions, ExecResult, runKernel
///   NumPy     readNpy, writeNpy
#include "layoutscope/core/result.hpp"
#include "layoutscope/ptx/module.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace layoutscope::async {
struct Timeline; // layoutscope/async/timeline.hpp
}

namespace layoutscope::exec {

// [SECTION] Launch -------------------------------------------------------------------------------

struct Dim3 {
    uint32_t x = 1, y = 1, z = 1;
    [[nodiscard]] uint64_t count() const { return uint64_t(x) * y * z; }
};

/// A global buffer: `tensor:f16[512,256]:index` or a .npy file. Its bytes live at `address` (stable:
/// argument order decides it) for the whole run and hold the final values afterwards.
struct ExecTensor {
    std::string name;  ///< the parameter name it was passed as
    std::string dtype; ///< "f16", "bf16", "f32", "f64", "u8".."u64", "s8".."s64"
    std::vector<uint64_t> shape;
    std::vector<uint8_t> bytes;
    uint64_t address = 0;
    [[nodiscard]] uint64_t elementBytes() const;
};

/// One `--arg KEY=VALUE`: KEY is a parameter name or its 0-based index; VALUE a scalar (integer, or a
/// float for an .f32/.f64 parameter) or a tensor.
struct ExecArg {
    std::string key;
    bool isTensor = false;
    std::string scalar; ///< the literal as written (typed by the parameter's declaration)
    ExecTensor tensor;
    /// A by-value struct (`.param .align A .b8 NAME[N]`): `fields:OFF=TYPE:VALUE,...` or
    /// `tensormap:DESC` as written; bound at launch (tensor names resolve to addresses then).
    std::string structSpec;
};

struct Launch {
    std::string entry; ///< a kernel name or its 0-based index among the module's entries ("" = the only one)
    Dim3 grid, block;
    Dim3 cluster;      ///< (1,1,1) = no cluster
    Dim3 cta{0, 0, 0}; ///< which CTA (with a cluster: any CTA of the cluster to run)
    uint32_t dynamicSmem = 0;
    std::vector<ExecArg> args;
    /// `--tensor NAME=SPEC`: global tensors bound to no parameter (reached through struct `ptr` fields
    /// or tensor maps); placed after the tensor arguments, in this order.
    std::vector<ExecTensor> tensors;
};

/// "X[,Y[,Z]]" with every extent >= 1 (`allowZero`: >= 0, for --cta). Errors name the rule.
[[nodiscard]] Result<Dim3> parseDim3(std::string_view text, bool allowZero = false);
/// "KEY=VALUE" (see ExecArg); tensors: `tensor:DTYPE[D0,D1,...]:index|zeros|random:SEED` or a `.npy`
/// path (read here). Tensors larger than 1 GiB are refused.
[[nodiscard]] Result<ExecArg> parseExecArg(std::string_view text);
/// `--tensor NAME=SPEC` (SPEC as a tensor argument's); NAME is [A-Za-z_][A-Za-z0-9_]*.
[[nodiscard]] Result<ExecTensor> parseExecTensor(std::string_view text);

/// The words of `layoutscope-cli exec MODULE.ptx OPTIONS...` (and of a scenario's `kernel` directive): the
/// module path, the launch, the run's options, and the --out / --expect requests (NAME, VALUE).
struct LaunchSpec {
    std::string module;
    Launch launch;
    struct Options {
        bool order = true;
    } options;
    std::vector<std::pair<std::string, std::string>> outs, expects;
};
/// Parse them (`words` without the program and command names). Errors: DiagCode::Syntax for a usage error
/// (unknown option, missing value, no module, no --grid/--block), the argument parsers' own otherwise.
[[nodiscard]] Result<LaunchSpec> parseLaunchWords(const std::vector<std::string>& words);

// [SECTION] Running ------------------------------------------------------------------------------

struct ExecOptions {
    uint64_t maxWarpSteps = uint64_t(1) << 28; ///< instructions issued per warp group; past it: a diagnostic
    /// Calls a thread may have in progress (`call` of a `.func`, recursion included); a deeper call stops
    /// the run naming the call's line and the depth (a runaway recursion).
    uint32_t maxCallDepth = 1024;
    /// Bytes the recursive calls in progress may hold, over all threads (their .local frames, the registers
    /// and .param bytes saved for their callers, the bookkeeping); a call past it stops the run likewise.
    uint64_t maxRecursionBytes = uint64_t(256) << 20;
    /// Feed the run to the time-and-order model (docs/exec.md "Time and order"): races, missed waits and
    /// proxy fences become errors. Off: no order checks (faster on big kernels).
    bool order = true;
    /// Record the run as a scenario (ExecResult::recording; docs/exec.md "Kernel scenarios"). The order
    /// model's errors then do not fail the run: they are ExecResult::notes of Error severity.
    bool record = false;
    /// Polled in the warp loop (every kProgressEvery warp instructions): once it reads true the run stops
    /// with a "run cancelled" error (DiagCode::Unsupported). nullptr: never cancelled (the GUI's Cancel).
    const std::atomic<bool>* cancel = nullptr;
    /// Called from the running thread every kProgressEvery warp instructions with the warp instructions
    /// issued so far (a progress bar). Empty: none.
    std::function<void(uint64_t warpInstructions)> progress;
    static constexpr uint64_t kProgressEvery = 1 << 14;
};

struct ExecResult {
    std::vector<ExecTensor> tensors; ///< the global tensors after the run
    uint64_t threadInstructions = 0; ///< instructions executed, counted per active thread
    uint64_t warpInstructions = 0;   ///< instructions issued, counted per warp group
    uint32_t ctas = 0, threads = 0;
    std::vector<Diagnostic> notes;          ///< warnings (an approximation used, ...)
    std::string recording;                  ///< ExecOptions::record: the run as scenario text
    std::vector<ExecTensor> initialTensors; ///< ExecOptions::record: the global tensors before the run
    /// ExecOptions::record with the order model on: its timeline, steps = the recording's instructions
    /// (statements, counted from 0), races' `finding` = their index in `notes`. Null otherwise.
    std::shared_ptr<const async::Timeline> timeline;
};

/// Run `launch` on `module`. Errors stop the run: an unknown entry, wrong argument count or type, a
/// grid that does not cover --cta, shared memory over 227 KiB, an instruction the executor does not
/// model (naming its PTX line), an out-of-range or misaligned access (line, thread, address), a
/// deadlock at a barrier, a run longer than options.maxWarpSteps.
[[nodiscard]] Result<ExecResult> runKernel(const PtxModule& module, const Launch& launch,
                                           const ExecOptions& options = {});

// [SECTION] NumPy --------------------------------------------------------------------------------

/// A .npy file's dtype (as ExecTensor::dtype), shape and data (C order, little-endian).
[[nodiscard]] Result<ExecTensor> readNpy(const std::string& path);
[[nodiscard]] Status writeNpy(const std::string& path, const ExecTensor& t);

} // namespace layoutscope::exec
