#pragma once
// A self-contained SVG line plot of normalised quality versus tests: per method a median line and a
// shaded 10th-90th percentile band. Coordinates are printed with fixed precision, so the same data
// give the same file byte for byte.
#include <fmt/format.h>

#include <string>
#include <vector>

namespace sadsl::knobs::bench {

struct plot_series {
  std::string name;
  std::string colour;
  std::vector<double> median, low, high;  // one value per test count 1..n
};

class quality_plot {
 public:
  explicit quality_plot(int tests) : tests_(tests) {}

  std::string render(const std::vector<plot_series>& series, const std::string& title) const {
    std::string svg = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" "
        "font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        width, height);
    svg += fmt::format("<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n", width / 2, title);
    svg += axes();
    for (const plot_series& s : series) svg += band(s) + line(s.median, s.colour);
    svg += legend(series);
    return svg + "</svg>\n";
  }

 private:
  static constexpr int width = 640, height = 420, left = 60, right = 20, top = 35, bottom = 50;

  double x(double test) const { return left + (test - 1) / (tests_ - 1) * (width - left - right); }
  double y(double quality) const { return top + (1 - quality) * (height - top - bottom); }

  std::string axes() const {
    std::string out;
    for (int i = 0; i <= 5; ++i) {
      const double q = i / 5.0;
      out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n", left, y(q),
                         width - right, y(q));
      out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.1f}</text>\n", left - 6, y(q) + 4, q);
    }
    for (int t = 10; t <= tests_; t += 10)
      out +=
          fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x(t), height - bottom + 18, t);
    out += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">tests</text>\n", width / 2, height - 10);
    out += fmt::format(
        "<text transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">best quality / optimum</text>\n",
        height / 2);
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"black\"/>\n", left,
                       top, width - left - right, height - top - bottom);
    return out;
  }

  std::string points(const std::vector<double>& values, bool reverse) const {
    std::string out;
    for (std::size_t k = 0; k < values.size(); ++k) {
      const std::size_t i = reverse ? values.size() - 1 - k : k;
      out += fmt::format("{:.1f},{:.1f} ", x(static_cast<double>(i + 1)), y(values[i]));
    }
    return out;
  }

  std::string band(const plot_series& s) const {
    return fmt::format("<polygon points=\"{}{}\" fill=\"{}\" fill-opacity=\"0.15\" stroke=\"none\"/>\n",
                       points(s.low, false), points(s.high, true), s.colour);
  }

  std::string line(const std::vector<double>& values, const std::string& colour) const {
    return fmt::format("<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                       points(values, false), colour);
  }

  std::string legend(const std::vector<plot_series>& series) const {
    std::string out;
    for (std::size_t i = 0; i < series.size(); ++i) {
      const double ly = height - bottom - 20.0 * static_cast<double>(series.size() - i);
      out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                         width - 200, ly, width - 175, ly, series[i].colour);
      out += fmt::format("<text x=\"{}\" y=\"{:.1f}\">{}</text>\n", width - 168, ly + 4, series[i].name);
    }
    out += fmt::format("<text x=\"{}\" y=\"{}\" fill=\"#555\">lines: median; bands: 10th-90th percentile</text>\n",
                       width - 330, height - bottom - 5);
    return out;
  }

  int tests_;
};

}  // namespace sadsl::knobs::bench
