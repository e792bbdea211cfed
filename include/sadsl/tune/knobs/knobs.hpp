#pragma once
// Umbrella header of the probabilistic tuning-knob search (paper 004): knobs, sensors, derived
// features, constraints, the search and its baselines. See docs/knobs.md.
#include "sadsl/tune/knobs/cutoff.hpp"
#include "sadsl/tune/knobs/feature.hpp"
#include "sadsl/tune/knobs/normal.hpp"
#include "sadsl/tune/knobs/problem.hpp"
#include "sadsl/tune/knobs/regression.hpp"
#include "sadsl/tune/knobs/search.hpp"
#include "sadsl/tune/knobs/space.hpp"
