#pragma once
/// The whole engine API in one include.
#include "layoutscope/memory.hpp"
#include "layoutscope/provenance.hpp"
#include "layoutscope/result.hpp"
#include "layoutscope/rules.hpp"
#include "layoutscope/scenario.hpp"
#include "layoutscope/tensor_map.hpp"
#include "layoutscope/tma.hpp"
#include "layoutscope/trace.hpp"
