#pragma once
/// The whole engine API in one include.
#include "layoutscope/core/memory.hpp"
#include "layoutscope/core/provenance.hpp"
#include "layoutscope/core/result.hpp"
#include "layoutscope/core/rules.hpp"
#include "layoutscope/core/trace.hpp"
#include "layoutscope/lesson/lesson.hpp"
#include "layoutscope/scenario/scenario.hpp"
#include "layoutscope/tma/tensor_map.hpp"
#include "layoutscope/tma/tma.hpp"
