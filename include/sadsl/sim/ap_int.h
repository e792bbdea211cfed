// sadsl's own ap_int.h for C simulation of generated Vitis HLS code with g++ or clang++.
//
// Generated code writes `#include <ap_int.h>` and is compiled with -I<prefix>/include/sadsl/sim.
// Provides ap_int<W> and ap_uint<W> (1 <= W <= 1024 as in Vitis; up to 4096 work) with Vitis'
// arithmetic, bit, range and concatenation semantics. Written from the public Vitis HLS
// documentation (UG1399); see docs/sim.md for what is supported and how it differs.
#ifndef SADSL_SIM_AP_INT_H
#define SADSL_SIM_AP_INT_H

// Lets code tell sadsl's simulation headers from Vitis' own (e.g. to call sadsl extensions).
#ifndef SADSL_SIM
#define SADSL_SIM 1
#endif

// Vitis' ap_int.h brings in the standard streams; generated code may rely on that.
#include <iostream>

#include "sadsl_ap_ops.h"

template <int W>
using ap_int = sadsl::sim::ap_int_base<W, true>;
template <int W>
using ap_uint = sadsl::sim::ap_int_base<W, false>;

using sadsl::sim::ap_bit_ref;
using sadsl::sim::ap_concat_ref;
using sadsl::sim::ap_int_base;
using sadsl::sim::ap_range_ref;

#endif  // SADSL_SIM_AP_INT_H
