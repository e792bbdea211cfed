#pragma once
// 2-D convolution space (paper 004 section 8.1): a K x K filter over an H x W image. Knob "pixels":
// output pixels computed in parallel per iteration. Knob "buffer": width of the row buffers; when it
// is narrower than the image, the image is processed in vertical strips that re-read a K-1 column
// halo and refill the K-1 line buffers per strip. The line buffers are banked so that the parallel
// pixels can read their columns at once: narrow buffers suit few lanes, wide ones need many.
#include "cgra.hpp"

namespace sadsl::knobs::bench {

inline design conv_design(const architecture& a, double pixels, double buffer) {
  constexpr double height = 480, width = 720, k = 5;
  const double strips = ceil_div(width, buffer);
  const double last_strip = width - (strips - 1) * buffer;
  // One line-buffer bank per pixel lane, holding the lane's columns of all K - 1 buffered rows;
  // each lane reads K - 1 words per iteration (neighbouring columns arrive through registers).
  const double banks = pixels;
  const double ops = pixels * (2 * k * k + 1) + 4;
  const double line_reads = ceil_div(k - 1, 2);
  // Each output row of a strip streams buffer + K - 1 input pixels for `buffer` outputs.
  const double io_slots = ceil_div(pixels * (buffer + k - 1) / buffer, a.stream_ports());
  const double ii = std::max({ceil_div(ops, a.alus()), line_reads, io_slots});
  const double row_iterations = (strips - 1) * ceil_div(buffer, pixels) + ceil_div(last_strip, pixels);
  design d;
  d.ops = ops;
  d.memories = banks + 2;  // line-buffer banks + input and output stream buffers
  d.words_per_memory = (k - 1) * ceil_div(buffer + k - 1, banks);
  d.instructions = ceil_div(ops, a.alus()) + (strips > 1 ? 4 : 3);  // + strip control if any
  d.initiation_interval = ii;
  d.compute_cycles = height * row_iterations * ii;
  // Per strip: refill K - 1 line buffers through the stream ports, pipeline fill.
  d.overhead_cycles = strips * ((k - 1) * (buffer + k - 1) / a.stream_ports() + 20);
  return d;
}

inline test_space conv_space(const architecture& a) {
  return kernel_space("conv2d", a, knob::range("pixels", 1, 64), knob::range("buffer", 16, 720, 16), 480.0 * 720 * 25,
                      conv_design, 37);
}

}  // namespace sadsl::knobs::bench
