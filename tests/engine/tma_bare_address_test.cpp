// cp.async.bulk.tensor address operands written bare or in brackets, checked against NVIDIA's
// assembler. Every expected verdict below is the ptxas 13.0 verdict (CUDA 13.0, V13.0.88) observed by
// assembling the instruction in golden/ptxas/README.md's wrapper kernel (.version 9.0,
// `ptxas -arch=<target> k.ptx -o /dev/null`, exit status 0 = accepted) on each of the six targets.
//
// Rule found: the shared-memory operands (load destination, store source, mbarrier) take a bare
// register or symbol exactly as they take `[base]`: a shared symbol or a 16/32/64-bit register, on
// every target and form (multicast, cache hint, .cta_group, im2col, im2col::w, gather4, stores). A
// 16-bit base (bare or in brackets), like a 16- or 32-bit tensor-map register, is rejected only on
// sm_120a loading to .shared::cluster (ptxas: "Arguments mismatch for instruction 'mov'"). Immediates
// ("Immediate addresses allowed only for .local state space"), .param symbols, predicates, vectors and
// undeclared names are rejected bare and in brackets; the tensor map must stay `[map, {coords}]`.
// Rows whose verdict differs between targets for another reason (.cta_group, gather4, im2col::w
// target gates) keep those verdicts too.
#include "layoutscope/ptx/validate.hpp"

#include <catch2/catch.hpp>

#include <iterator>
#include <string>
#include <utility>

using namespace layoutscope;

namespace {

/// Instruction templates: "cp.async.bulk.tensor." + qualifiers + " " + operands, where $D = destination
/// (load) or source (store), $T = tensor-map base, $M = mbarrier.
struct Form {
    const char* name;
    const char* qualifiers;
    const char* operands;
};
const Form kForms[] = {
    {"load_cluster", "2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes",
     "$D, [$T, {%r0, %r1}], $M;"},
    {"load_cta", "2d.shared::cta.global.tile.mbarrier::complete_tx::bytes", "$D, [$T, {%r0, %r1}], $M;"},
    {"multicast", "2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster",
     "$D, [$T, {%r0, %r1}], $M, %h2;"},
    {"cache_hint", "2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.L2::cache_hint",
     "$D, [$T, {%r0, %r1}], $M, %rd1;"},
    {"cta_group1", "2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::1",
     "$D, [$T, {%r0, %r1}], $M;"},
    {"cta_group2_mc_hint",
     "5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2"
     ".L2::cache_hint",
     "$D, [$T, {%r0, %r1, %r2, %r3, %r4}], $M, %h2, %rd1;"},
    {"im2col_cluster", "4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes",
     "$D, [$T, {%r0, %r1, %r2, %r3}], $M, {%h1, %h2};"},
    {"im2col_cta", "4d.shared::cta.global.im2col.mbarrier::complete_tx::bytes",
     "$D, [$T, {%r0, %r1, %r2, %r3}], $M, {%h1, %h2};"},
    {"im2col_w_cta", "3d.shared::cta.global.im2col::w.mbarrier::complete_tx::bytes",
     "$D, [$T, {%r0, %r1, %r2}], $M, {%h1, %h2};"},
    {"gather4_cluster", "2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes",
     "$D, [$T, {%r0, %r1, %r2, %r3, %r4}], $M;"},
    {"gather4_cta", "2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes",
     "$D, [$T, {%r0, %r1, %r2, %r3, %r4}], $M;"},
    {"store", "2d.global.shared::cta.tile.bulk_group", "[$T, {%r0, %r1}], $D;"},
    {"store_im2col_hint", "3d.global.shared::cta.im2col_no_offs.bulk_group.L2::cache_hint",
     "[$T, {%r0, %r1, %r2}], $D, %rd1;"},
};

/// Targets in the order of Row::ptxas.
const char* const kTargets[] = {"sm_90a", "sm_100a", "sm_100f", "sm_103a", "sm_110a", "sm_120a"};

struct Row {
    const char* form;
    const char* dst;   ///< $D
    const char* map;   ///< $T
    const char* mbar;  ///< $M
    const char* ptxas; ///< ptxas 13.0 verdict per kTargets entry: A = accepted, R = rejected
};

// ptxas 13.0 verdicts. `%p1` bare in the mbarrier slot never assembles: ptxas 13.0 grows without
// bound (12 GB after 30 min) and, under a 3 GB limit, ends with "Memory allocation failure" or SIGSEGV.
const Row kRows[] = {
    {"load_cluster", "[smem]", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "mbar", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "smem", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "%h1", "AAAAAR"},
    {"load_cluster", "[smem]", "%rd0", "%r1", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "%rd1", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "%tmp1", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "[mbar+8]", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "[%h1]", "AAAAAR"},
    {"load_cluster", "[smem]", "%rd0", "[%r1]", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "[%rd1]", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "[%h1+8]", "AAAAAR"},
    {"load_cluster", "[smem]", "%rd0", "[smem]", "AAAAAA"},
    {"load_cluster", "[smem]", "%rd0", "5", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "0", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "0x10", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "[5]", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "tmap", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "[p0]", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "[tmap]", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "%p1", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "[%p1]", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "{%r1}", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "undecl", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "k", "RRRRRR"},
    {"load_cluster", "[smem]", "%rd0", "_", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "mbar", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "smem", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "%h1", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "%r1", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "%rd1", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "%tmp1", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "[mbar+8]", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "[%h1]", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "[%r1]", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "[%rd1]", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "[%h1+8]", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "[smem]", "AAAAAA"},
    {"load_cta", "[smem]", "%rd0", "5", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "0", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "0x10", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "[5]", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "tmap", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "[p0]", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "[tmap]", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "%p1", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "[%p1]", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "{%r1}", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "undecl", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "k", "RRRRRR"},
    {"load_cta", "[smem]", "%rd0", "_", "RRRRRR"},
    {"multicast", "[smem]", "%rd0", "[mbar]", "AAAAAA"},
    {"multicast", "[smem]", "%rd0", "mbar", "AAAAAA"},
    {"multicast", "[smem]", "%rd0", "%h1", "AAAAAR"},
    {"multicast", "[smem]", "%rd0", "%r1", "AAAAAA"},
    {"multicast", "[smem]", "%rd0", "%rd1", "AAAAAA"},
    {"multicast", "[smem]", "%rd0", "[%h1]", "AAAAAR"},
    {"multicast", "[smem]", "%rd0", "5", "RRRRRR"},
    {"multicast", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"cache_hint", "[smem]", "%rd0", "[mbar]", "AAAAAA"},
    {"cache_hint", "[smem]", "%rd0", "mbar", "AAAAAA"},
    {"cache_hint", "[smem]", "%rd0", "%h1", "AAAAAR"},
    {"cache_hint", "[smem]", "%rd0", "%r1", "AAAAAA"},
    {"cache_hint", "[smem]", "%rd0", "%rd1", "AAAAAA"},
    {"cache_hint", "[smem]", "%rd0", "[%h1]", "AAAAAR"},
    {"cache_hint", "[smem]", "%rd0", "5", "RRRRRR"},
    {"cache_hint", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"cta_group1", "[smem]", "%rd0", "[mbar]", "RAAAAR"},
    {"cta_group1", "[smem]", "%rd0", "mbar", "RAAAAR"},
    {"cta_group1", "[smem]", "%rd0", "%h1", "RAAAAR"},
    {"cta_group1", "[smem]", "%rd0", "%r1", "RAAAAR"},
    {"cta_group1", "[smem]", "%rd0", "%rd1", "RAAAAR"},
    {"cta_group1", "[smem]", "%rd0", "[%h1]", "RAAAAR"},
    {"cta_group1", "[smem]", "%rd0", "5", "RRRRRR"},
    {"cta_group1", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"cta_group2_mc_hint", "[smem]", "%rd0", "[mbar]", "RAAAAR"},
    {"cta_group2_mc_hint", "[smem]", "%rd0", "mbar", "RAAAAR"},
    {"cta_group2_mc_hint", "[smem]", "%rd0", "%h1", "RAAAAR"},
    {"cta_group2_mc_hint", "[smem]", "%rd0", "%r1", "RAAAAR"},
    {"cta_group2_mc_hint", "[smem]", "%rd0", "%rd1", "RAAAAR"},
    {"cta_group2_mc_hint", "[smem]", "%rd0", "[%h1]", "RAAAAR"},
    {"cta_group2_mc_hint", "[smem]", "%rd0", "5", "RRRRRR"},
    {"cta_group2_mc_hint", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"im2col_cluster", "[smem]", "%rd0", "[mbar]", "AAAAAA"},
    {"im2col_cluster", "[smem]", "%rd0", "mbar", "AAAAAA"},
    {"im2col_cluster", "[smem]", "%rd0", "%h1", "AAAAAR"},
    {"im2col_cluster", "[smem]", "%rd0", "%r1", "AAAAAA"},
    {"im2col_cluster", "[smem]", "%rd0", "%rd1", "AAAAAA"},
    {"im2col_cluster", "[smem]", "%rd0", "[%h1]", "AAAAAR"},
    {"im2col_cluster", "[smem]", "%rd0", "5", "RRRRRR"},
    {"im2col_cluster", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"im2col_cta", "[smem]", "%rd0", "[mbar]", "AAAAAA"},
    {"im2col_cta", "[smem]", "%rd0", "mbar", "AAAAAA"},
    {"im2col_cta", "[smem]", "%rd0", "%h1", "AAAAAA"},
    {"im2col_cta", "[smem]", "%rd0", "%r1", "AAAAAA"},
    {"im2col_cta", "[smem]", "%rd0", "%rd1", "AAAAAA"},
    {"im2col_cta", "[smem]", "%rd0", "[%h1]", "AAAAAA"},
    {"im2col_cta", "[smem]", "%rd0", "5", "RRRRRR"},
    {"im2col_cta", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"im2col_w_cta", "[smem]", "%rd0", "[mbar]", "RAAAAA"},
    {"im2col_w_cta", "[smem]", "%rd0", "mbar", "RAAAAA"},
    {"im2col_w_cta", "[smem]", "%rd0", "%h1", "RAAAAA"},
    {"im2col_w_cta", "[smem]", "%rd0", "%r1", "RAAAAA"},
    {"im2col_w_cta", "[smem]", "%rd0", "%rd1", "RAAAAA"},
    {"im2col_w_cta", "[smem]", "%rd0", "[%h1]", "RAAAAA"},
    {"im2col_w_cta", "[smem]", "%rd0", "5", "RRRRRR"},
    {"im2col_w_cta", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"gather4_cluster", "[smem]", "%rd0", "[mbar]", "RAAAAR"},
    {"gather4_cluster", "[smem]", "%rd0", "mbar", "RAAAAR"},
    {"gather4_cluster", "[smem]", "%rd0", "%h1", "RAAAAR"},
    {"gather4_cluster", "[smem]", "%rd0", "%r1", "RAAAAR"},
    {"gather4_cluster", "[smem]", "%rd0", "%rd1", "RAAAAR"},
    {"gather4_cluster", "[smem]", "%rd0", "[%h1]", "RAAAAR"},
    {"gather4_cluster", "[smem]", "%rd0", "5", "RRRRRR"},
    {"gather4_cluster", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"gather4_cta", "[smem]", "%rd0", "[mbar]", "RAAAAA"},
    {"gather4_cta", "[smem]", "%rd0", "mbar", "RAAAAA"},
    {"gather4_cta", "[smem]", "%rd0", "%h1", "RAAAAA"},
    {"gather4_cta", "[smem]", "%rd0", "%r1", "RAAAAA"},
    {"gather4_cta", "[smem]", "%rd0", "%rd1", "RAAAAA"},
    {"gather4_cta", "[smem]", "%rd0", "[%h1]", "RAAAAA"},
    {"gather4_cta", "[smem]", "%rd0", "5", "RRRRRR"},
    {"gather4_cta", "[smem]", "%rd0", "p0", "RRRRRR"},
    {"load_cluster", "smem", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cluster", "mbar", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cluster", "%h1", "%rd0", "[mbar]", "AAAAAR"},
    {"load_cluster", "[%h1]", "%rd0", "[mbar]", "AAAAAR"},
    {"load_cluster", "%r1", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cluster", "%rd1", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cluster", "[%r1+8]", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cluster", "5", "%rd0", "[mbar]", "RRRRRR"},
    {"load_cluster", "[5]", "%rd0", "[mbar]", "RRRRRR"},
    {"load_cluster", "p0", "%rd0", "[mbar]", "RRRRRR"},
    {"load_cluster", "[p0]", "%rd0", "[mbar]", "RRRRRR"},
    {"load_cta", "smem", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cta", "mbar", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cta", "%h1", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cta", "[%h1]", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cta", "%r1", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cta", "%rd1", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cta", "[%r1+8]", "%rd0", "[mbar]", "AAAAAA"},
    {"load_cta", "5", "%rd0", "[mbar]", "RRRRRR"},
    {"load_cta", "[5]", "%rd0", "[mbar]", "RRRRRR"},
    {"load_cta", "p0", "%rd0", "[mbar]", "RRRRRR"},
    {"load_cta", "[p0]", "%rd0", "[mbar]", "RRRRRR"},
    {"store", "smem", "%rd0", "[mbar]", "AAAAAA"},
    {"store", "mbar", "%rd0", "[mbar]", "AAAAAA"},
    {"store", "%h1", "%rd0", "[mbar]", "AAAAAA"},
    {"store", "[%h1]", "%rd0", "[mbar]", "AAAAAA"},
    {"store", "%r1", "%rd0", "[mbar]", "AAAAAA"},
    {"store", "%rd1", "%rd0", "[mbar]", "AAAAAA"},
    {"store", "[%r1+8]", "%rd0", "[mbar]", "AAAAAA"},
    {"store", "5", "%rd0", "[mbar]", "RRRRRR"},
    {"store", "[5]", "%rd0", "[mbar]", "RRRRRR"},
    {"store", "p0", "%rd0", "[mbar]", "RRRRRR"},
    {"store", "[p0]", "%rd0", "[mbar]", "RRRRRR"},
    {"store_im2col_hint", "smem", "%rd0", "[mbar]", "AAAAAA"},
    {"store_im2col_hint", "mbar", "%rd0", "[mbar]", "AAAAAA"},
    {"store_im2col_hint", "%h1", "%rd0", "[mbar]", "AAAAAA"},
    {"store_im2col_hint", "[%h1]", "%rd0", "[mbar]", "AAAAAA"},
    {"store_im2col_hint", "%r1", "%rd0", "[mbar]", "AAAAAA"},
    {"store_im2col_hint", "%rd1", "%rd0", "[mbar]", "AAAAAA"},
    {"store_im2col_hint", "[%r1+8]", "%rd0", "[mbar]", "AAAAAA"},
    {"store_im2col_hint", "5", "%rd0", "[mbar]", "RRRRRR"},
    {"store_im2col_hint", "[5]", "%rd0", "[mbar]", "RRRRRR"},
    {"store_im2col_hint", "p0", "%rd0", "[mbar]", "RRRRRR"},
    {"store_im2col_hint", "[p0]", "%rd0", "[mbar]", "RRRRRR"},
    {"multicast", "smem", "%rd0", "[mbar]", "AAAAAA"},
    {"multicast", "mbar", "%rd0", "[mbar]", "AAAAAA"},
    {"multicast", "%h1", "%rd0", "[mbar]", "AAAAAR"},
    {"multicast", "[%h1]", "%rd0", "[mbar]", "AAAAAR"},
    {"multicast", "%r1", "%rd0", "[mbar]", "AAAAAA"},
    {"multicast", "%rd1", "%rd0", "[mbar]", "AAAAAA"},
    {"multicast", "[%r1+8]", "%rd0", "[mbar]", "AAAAAA"},
    {"multicast", "5", "%rd0", "[mbar]", "RRRRRR"},
    {"multicast", "[5]", "%rd0", "[mbar]", "RRRRRR"},
    {"multicast", "p0", "%rd0", "[mbar]", "RRRRRR"},
    {"multicast", "[p0]", "%rd0", "[mbar]", "RRRRRR"},
    {"load_cluster", "[smem]", "%r1", "[mbar]", "AAAAAR"},
    {"load_cluster", "[smem]", "%h1", "[mbar]", "AAAAAR"},
    {"load_cluster", "[smem]", "tmap", "[mbar]", "RRRRRR"},
    {"load_cluster", "[smem]", "p0", "[mbar]", "RRRRRR"},
    {"load_cluster", "[smem]", "smem", "[mbar]", "RRRRRR"},
    {"load_cta", "[smem]", "%r1", "[mbar]", "AAAAAA"},
    {"load_cta", "[smem]", "%h1", "[mbar]", "AAAAAA"},
    {"load_cta", "[smem]", "tmap", "[mbar]", "RRRRRR"},
    {"load_cta", "[smem]", "p0", "[mbar]", "RRRRRR"},
    {"load_cta", "[smem]", "smem", "[mbar]", "RRRRRR"},
    {"store", "[smem]", "%r1", "[mbar]", "AAAAAA"},
    {"store", "[smem]", "%h1", "[mbar]", "AAAAAA"},
    {"store", "[smem]", "tmap", "[mbar]", "RRRRRR"},
    {"store", "[smem]", "p0", "[mbar]", "RRRRRR"},
    {"store", "[smem]", "smem", "[mbar]", "RRRRRR"},
    {"load_cluster", "smem", "%rd0", "mbar", "AAAAAA"},
    {"load_cluster", "%r1", "%rd0", "%r1", "AAAAAA"},
    {"load_cluster", "%h1", "%h1", "%h1", "AAAAAR"},
    {"load_cta", "smem", "%rd0", "mbar", "AAAAAA"},
    {"load_cta", "%r1", "%rd0", "%r1", "AAAAAA"},
    {"load_cta", "%h1", "%h1", "%h1", "AAAAAA"},
    {"im2col_cta", "smem", "%rd0", "mbar", "AAAAAA"},
    {"im2col_cta", "%r1", "%rd0", "%r1", "AAAAAA"},
    {"im2col_cta", "%h1", "%h1", "%h1", "AAAAAA"},
    {"cache_hint", "smem", "%rd0", "mbar", "AAAAAA"},
    {"cache_hint", "%r1", "%rd0", "%r1", "AAAAAA"},
    {"cache_hint", "%h1", "%h1", "%h1", "AAAAAR"},
};

std::string instantiate(const Row& r) {
    std::string s;
    for (const auto& f : kForms)
        if (std::string(f.name) == r.form)
            s = std::string("cp.async.bulk.tensor.") + f.qualifiers + " " + f.operands;
    REQUIRE(!s.empty());
    const std::pair<const char*, const char*> subst[] = {{"$D", r.dst}, {"$T", r.map}, {"$M", r.mbar}};
    for (const auto& [key, value] : subst)
        for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at)) s.replace(at, 2, value);
    return s;
}

} // namespace

TEST_CASE("cp.async.bulk.tensor bare and bracketed address operands follow ptxas 13.0",
          "[ptx][validate][tma]") {
    const PtxEnvironment env = ptxasWrapperEnvironment();
    int checked = 0;
    for (const auto& r : kRows) {
        const std::string text = instantiate(r);
        auto parsed = parseInstruction(text);
        for (size_t i = 0; i < std::size(kTargets); ++i) {
            const bool expected = r.ptxas[i] == 'A'; // ptxas 13.0 verdict
            const bool ours = parsed && validateInstruction(*parsed, PtxTarget{kTargets[i], 9, 0}, env).ok();
            INFO(kTargets[i] << ": " << text << " (ptxas 13.0 " << (expected ? "accepts" : "rejects") << ")");
            CHECK(ours == expected);
            ++checked;
        }
    }
    CHECK(checked == static_cast<int>(std::size(kRows) * std::size(kTargets)));
}

TEST_CASE("cp.async.bulk.tensor rejected address operands keep their messages", "[ptx][validate][tma]") {
    const PtxEnvironment env = ptxasWrapperEnvironment();
    auto message = [&](const std::string& text, const char* sm) {
        auto p = parseInstruction(text);
        REQUIRE(p);
        auto s = validateInstruction(*p, PtxTarget{sm, 9, 0}, env);
        return s ? std::string() : s.error().message;
    };
    const std::string load =
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [smem], "
        "[%rd0, {%r0, %r1}], ";
    // ptxas 13.0: "Immediate addresses allowed only for .local state space".
    CHECK(message(load + "5;", "sm_100a").find("the mbarrier must be an address `[") != std::string::npos);
    // ptxas 13.0: "State space mismatch between instruction and address".
    CHECK(message(load + "p0;", "sm_100a").find("the mbarrier must be") != std::string::npos);
    // ptxas 13.0 on sm_120a: "Arguments mismatch for instruction 'mov'" (a 16-bit base, .shared::cluster).
    CHECK(message(load + "%h1;", "sm_120a").find("16-bit register") != std::string::npos);
    CHECK(message(load + "%h1;", "sm_100a").empty());
}
