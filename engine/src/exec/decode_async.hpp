#pragma once
/// Internal to the executor's decoder: the asynchronous and cluster forms (mbarrier.*, elect.sync, mapa,
/// barrier.cluster.*, fence.* / membar, cp.async.bulk* / cp.reduce.async.bulk*). decode.cpp calls
/// decodeAsync before its opcode table; the forms decode to Opc::Mbarrier ... Opc::AsyncCopy with the
/// sub-operation in Op::mode and the qualifiers in Op::async (AsyncFlag bits).
#include "exec/program.hpp"

#include <optional>
#include <string>
#include <vector>

namespace layoutscope::exec {

/// Op::mode of Opc::Mbarrier (PTX ISA 9.2 §9.7.13.15.11 - §9.7.13.15.18).
enum class MbarOp : uint8_t {
    Init,
    Inval,
    Arrive,
    ArriveDrop,
    ExpectTx,
    CompleteTx,
    TestWait,
    TryWait,
    PendingCount
};

/// Op::mode of Opc::Fence.
enum class FenceForm : uint8_t { Ordering, ProxyAsync, MbarrierInit, ProxyOther };

/// Op::mode of Opc::AsyncCopy.
enum class CopyForm : uint8_t {
    TensorLoad,
    TensorStore,
    TensorReduce,
    TensorPrefetch,
    BulkLoad,
    BulkStore,
    BulkReduce,
    BulkPrefetch,
    BulkSharedToCluster,
    CommitGroup,
    WaitGroup
};

/// Op::async bits.
enum AsyncFlag : uint32_t {
    kAfParity = 1u << 0,      ///< .parity (test_wait / try_wait)
    kAfExpectTx = 1u << 1,    ///< arrive.expect_tx / arrive_drop.expect_tx
    kAfNoComplete = 1u << 2,  ///< .noComplete
    kAfCluster = 1u << 3,     ///< .shared::cluster operand space
    kAfMulticast = 1u << 4,   ///< .multicast::cluster
    kAfCacheHint = 1u << 5,   ///< .L2::cache_hint (a trailing cache-policy operand)
    kAfRead = 1u << 6,        ///< wait_group.read
    kAfCtaGroup2 = 1u << 7,   ///< .cta_group::2
    kAfMbarrier = 1u << 8,    ///< .mbarrier::complete_tx::bytes completion
    kAfBulkGroup = 1u << 9,   ///< .bulk_group completion
    kAfIm2col = 1u << 10,     ///< .im2col (loads: {offW, offH, offD} after [mbar])
    kAfIm2colW = 1u << 11,    ///< .im2col::w (loads: {wHalo, wOffset} after [mbar])
    kAfIm2colW128 = 1u << 12, ///< .im2col::w::128
    kAfNoOffs = 1u << 13,     ///< .im2col_no_offs (stores, reduces)
    kAfGather4 = 1u << 14,    ///< .tile::gather4 (2-D loads, {col, row0..row3})
    kAfScatter4 = 1u << 15,   ///< .tile::scatter4 (2-D stores, {col, row0..row3})
};

/// Decode `parts` (the opcode split at '.') when it is one of the forms above: sets `handled` and fills
/// op.opc / mode / async / t / space; returns the reason when a qualifier is not modelled.
[[nodiscard]] std::optional<std::string> decodeAsync(const std::vector<std::string>& parts, Op& op,
                                                     bool& handled);

struct DecodeScope;
/// A bulk-tensor operand `[tensorMap, {c0, c1, ...}]`: `handled` when `text` has that form; `out` is the
/// map address (OK::Mem) with the coordinates in out.elems.
[[nodiscard]] std::optional<std::string> parseTensorOperand(const std::string& text, DecodeScope& s,
                                                            Opnd& out, bool& handled);

} // namespace layoutscope::exec
