#pragma once
// Umbrella header: everything a user of sadsl needs.
#include "sadsl/dsl/affine.hpp"
#include "sadsl/dsl/expr.hpp"
#include "sadsl/dsl/kernel.hpp"
#include "sadsl/dsl/types.hpp"
#include "sadsl/error.hpp"
#include "sadsl/poly/dependences.hpp"
#include "sadsl/poly/dump.hpp"
#include "sadsl/poly/program.hpp"
#include "sadsl/poly/interpreter.hpp"
#include "sadsl/catalog/kernels.hpp"
