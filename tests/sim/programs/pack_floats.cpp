// A stand-alone HLS-style program, written as sadsl's generated code is: it includes <ap_int.h> and
// <hls_stream.h>, is C++14, and reaches sadsl's runner only under #ifdef SADSL_SIM.
// standalone_test.cpp compiles it with g++ -std=c++14 -I<source>/include/sadsl/sim and runs it.
//
// pack puts 16 floats into each 512-bit word through their bit patterns, scale doubles every lane
// and adds one, unpack takes the floats out again. Usage: pack_floats sequential|concurrent
#include <ap_int.h>
#include <hls_stream.h>

#include <cstdio>

#ifdef SADSL_SIM
#include <sadsl_dataflow.h>
#endif

typedef ap_uint<512> word_t;

// The bit pattern of a float and back: a union is supported by g++, clang++ and Vitis HLS alike.
static unsigned float_to_bits(float f) {
  union {
    unsigned u;
    float f;
  } c;
  c.f = f;
  return c.u;
}
static float bits_to_float(unsigned u) {
  union {
    unsigned u;
    float f;
  } c;
  c.u = u;
  return c.f;
}

static void pack(const float* in, int words, hls::stream<word_t>& out) {
  for (int w = 0; w < words; ++w) {
#pragma HLS PIPELINE II = 1
    word_t word = 0;
    for (int k = 0; k < 16; ++k) {
#pragma HLS UNROLL
      word.range(32 * k + 31, 32 * k) = float_to_bits(in[16 * w + k]);
    }
    out.write(word);
  }
}

static void scale(hls::stream<word_t>& in, hls::stream<word_t>& out, int words) {
  for (int w = 0; w < words; ++w) {
#pragma HLS PIPELINE II = 1
    const word_t word = in.read();
    word_t result = 0;
    for (int k = 0; k < 16; k += 2) {
#pragma HLS UNROLL
      // Two lanes at a time: a 64-bit slice split by concatenation on the left-hand side.
      ap_uint<32> high, low;
      (high, low) = word(32 * k + 63, 32 * k);
      const float h = bits_to_float(high.to_uint()) * 2 + 1;
      const float l = bits_to_float(low.to_uint()) * 2 + 1;
      result.range(32 * k + 63, 32 * k) = (ap_uint<32>(float_to_bits(h)), ap_uint<32>(float_to_bits(l)));
    }
    out << result;
  }
}

static void unpack(hls::stream<word_t>& in, float* out, int words) {
  for (int w = 0; w < words; ++w) {
#pragma HLS PIPELINE II = 1
    word_t word;
    in >> word;
    for (int k = 0; k < 16; ++k) {
#pragma HLS UNROLL
      const unsigned bits = word.range(32 * k + 31, 32 * k);
      out[16 * w + k] = bits_to_float(bits);
    }
  }
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: pack_floats sequential|concurrent\n");
    return 2;
  }
  const int words = 64;
  static float in[16 * words], out[16 * words];
  for (int i = 0; i < 16 * words; ++i) in[i] = static_cast<float>(i) * 0.25f - 100.0f;

  hls::stream<word_t, 2> packed("packed"), scaled("scaled");
#ifdef SADSL_SIM
  sadsl::sim::dataflow region;
  region.add("pack", [&] { pack(in, words, packed); })
      .add("scale", [&] { scale(packed, scaled, words); })
      .add("unpack", [&] { unpack(scaled, out, words); });
  const sadsl::sim::run_result r = region.run(sadsl::sim::parse_mode(argv[1]));
  if (!r.ok()) {
    std::printf("%s\n", r.message.c_str());
    return 1;
  }
#else
  pack(in, words, packed);
  scale(packed, scaled, words);
  unpack(scaled, out, words);
#endif

  int errors = 0;
  for (int i = 0; i < 16 * words; ++i)
    if (out[i] != in[i] * 2 + 1) ++errors;
  std::printf("%s: %d floats, %d errors", argv[1], 16 * words, errors);
#ifdef SADSL_SIM
  std::printf(", tokens packed %llu scaled %llu", static_cast<unsigned long long>(r.find_stream("packed")->written),
              static_cast<unsigned long long>(r.find_stream("scaled")->written));
#endif
  std::printf("\n");
  return errors == 0 ? 0 : 1;
}
