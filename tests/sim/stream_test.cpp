// hls::stream and the sadsl::sim::dataflow runner in both modes: FIFO order, bounded FIFOs, deadlock,
// empty-read and stall reports (exact messages), failing processes and per-run token counts.
// Catch2 assertions are not thread-safe, so processes only record what they saw; checks come after.
#include <catch2/catch.hpp>

#include <climits>
#include <stdexcept>
#include <vector>

#include <sadsl/sim/ap_int.h>
#include <sadsl/sim/sadsl_dataflow.h>

using sadsl::sim::dataflow;
using sadsl::sim::mode;
using sadsl::sim::run_result;
using sadsl::sim::run_status;

namespace {

// Generated modules take streams of unspecified depth; streams with a DEPTH must bind to them.
void produce(hls::stream<int>& out, int n) {
  for (int i = 0; i < n; ++i) out.write(i);
}
void add_one(hls::stream<int>& in, hls::stream<int>& out, int n) {
  for (int i = 0; i < n; ++i) out << in.read() + 1;
}
void consume(hls::stream<int>& in, int n, std::vector<int>* seen) {
  for (int i = 0; i < n; ++i) {
    int v;
    in >> v;
    seen->push_back(v);
  }
}

std::vector<int> iota_plus(int n, int plus) {
  std::vector<int> v;
  for (int i = 0; i < n; ++i) v.push_back(i + plus);
  return v;
}

}  // namespace

TEST_CASE("a stream is a FIFO outside any run", "[sim][stream]") {
  hls::stream<int, 2> s("s");
  for (int i = 0; i < 1000; ++i) s.write(i);  // unbounded outside concurrent runs, whatever DEPTH says
  REQUIRE(s.size() == 1000);
  REQUIRE(!s.full());
  REQUIRE(s.capacity() == static_cast<unsigned>(INT_MAX));
  for (int i = 0; i < 1000; ++i) REQUIRE(s.read() == i);
  REQUIRE(s.empty());
  int v = 7;
  REQUIRE(!s.read_nb(v));
  REQUIRE(v == 7);
  REQUIRE(s.write_nb(8));
  REQUIRE(s.read_nb(v));
  REQUIRE(v == 8);
  REQUIRE(s.tokens_written() == 1001);
  REQUIRE(s.tokens_read() == 1001);
  REQUIRE(s.name() == "s");
  REQUIRE(s.depth() == 2);
  REQUIRE_THROWS_WITH(s.read(), "empty read: s read outside any process (empty; 1001 written, 1001 read)");
  try {
    s.read(v);
    FAIL("no exception");
  } catch (const sadsl::sim::empty_read_error& e) {
    REQUIRE(e.stream() == "s");
    REQUIRE(e.process().empty());
  }
}

TEST_CASE("unnamed streams get a unique default name", "[sim][stream]") {
  hls::stream<int> a, b;
  REQUIRE(a.name() != b.name());
  REQUIRE(a.name().rfind("stream_", 0) == 0);
  a.set_name("renamed");
  REQUIRE(a.name() == "renamed");
}

TEST_CASE("a three-process pipeline runs in both modes with the same tokens", "[sim][stream]") {
  const int n = 2000;
  for (mode m : {mode::sequential, mode::concurrent}) {
    hls::stream<int, 1> a("a"), b("b");
    std::vector<int> seen;
    dataflow region;
    region.add("produce", [&] { produce(a, n); })
        .add("add_one", [&] { add_one(a, b, n); })
        .add("consume", [&] { consume(b, n, &seen); });
    const run_result r = region.run(m);
    INFO("mode " << (m == mode::sequential ? "sequential" : "concurrent"));
    REQUIRE(r.ok());
    REQUIRE(r.message.empty());
    REQUIRE(seen == iota_plus(n, 1));
    const sadsl::sim::stream_stats* sa = r.find_stream("a");
    REQUIRE(sa != nullptr);
    REQUIRE(sa->written == static_cast<std::uint64_t>(n));
    REQUIRE(sa->read == static_cast<std::uint64_t>(n));
    REQUIRE(sa->size == 0);
    REQUIRE(sa->depth == 1);
    REQUIRE(r.token_counts().at("b") == static_cast<std::uint64_t>(n));
  }
}

TEST_CASE("wide words keep their order through depth-1 FIFOs in concurrent mode", "[sim][stream]") {
  hls::stream<ap_uint<512>, 1> s("words");
  std::vector<ap_uint<512>> received;
  dataflow region;
  region.add("writer", [&] {
    for (int i = 0; i < 500; ++i) {
      ap_uint<512> w = 0;
      w.range(511, 480) = i;
      w.range(31, 0) = ~i;
      s.write(w);
    }
  });
  region.add("reader", [&] {
    for (int i = 0; i < 500; ++i) received.push_back(s.read());
  });
  REQUIRE(region.run(mode::concurrent).ok());
  REQUIRE(received.size() == 500);
  for (int i = 0; i < 500; ++i) {
    REQUIRE(received[static_cast<std::size_t>(i)].range(511, 480) == static_cast<unsigned>(i));
    REQUIRE(received[static_cast<std::size_t>(i)].range(31, 0) == static_cast<unsigned>(~i));
  }
}

TEST_CASE("two processes that read before they write deadlock", "[sim][stream]") {
  hls::stream<int, 2> x("x"), y("y");
  dataflow region;
  region.add("P", [&] {
    const int v = x.read();
    y.write(v);
  });
  region.add("Q", [&] {
    const int v = y.read();
    x.write(v);
  });
  const run_result r = region.run(mode::concurrent);
  REQUIRE(r.status == run_status::deadlock);
  REQUIRE(r.message == "deadlock: P waits to read x (empty); Q waits to read y (empty)");
  // Sequential mode finds the same mistake as an empty read in the first process.
  const run_result s = region.run(mode::sequential);
  REQUIRE(s.status == run_status::empty_read);
  REQUIRE(s.message == "empty read: P reads x (empty; 0 written, 0 read)");
}

TEST_CASE("a FIFO too shallow for the order of reads deadlocks", "[sim][stream]") {
  // The producer writes three tokens to x, then three to y; the consumer reads y first. Depth 2
  // cannot hold the third x token, which an unbounded sequential run never notices.
  hls::stream<int, 2> x("fifo_x"), y("fifo_y");
  dataflow region;
  region.add("producer", [&] {
    for (int i = 0; i < 3; ++i) x.write(i);
    for (int i = 0; i < 3; ++i) y.write(i);
  });
  region.add("consumer", [&] {
    for (int i = 0; i < 3; ++i) y.read();
    for (int i = 0; i < 3; ++i) x.read();
  });
  const run_result r = region.run(mode::concurrent);
  REQUIRE(r.status == run_status::deadlock);
  REQUIRE(r.message == "deadlock: producer waits to write fifo_x (full, depth 2); consumer waits to read fifo_y (empty)");
  REQUIRE(r.find_stream("fifo_x")->written == 2);
  REQUIRE(r.find_stream("fifo_x")->size == 2);
  REQUIRE(region.run(mode::sequential).ok());
}

TEST_CASE("a consumer that reads more than was produced deadlocks after the producer ends", "[sim][stream]") {
  hls::stream<int, 4> s("s");
  std::vector<int> seen;
  dataflow region;
  region.add("producer", [&] { produce(s, 3); });
  region.add("consumer", [&] { consume(s, 4, &seen); });
  const run_result r = region.run(mode::concurrent);
  REQUIRE(r.status == run_status::deadlock);
  REQUIRE(r.message == "deadlock: consumer waits to read s (empty)");
  REQUIRE(seen == iota_plus(3, 0));
}

TEST_CASE("sequential mode reports a read of an empty stream and stops", "[sim][stream]") {
  hls::stream<int> s("fifo_A_PE_0_1");
  bool later_process_ran = false;
  dataflow region;
  region.add("A_IO_L2_in_0", [&] { produce(s, 2); });
  region.add("PE_0_1", [&] {
    for (int i = 0; i < 3; ++i) s.read();
  });
  region.add("drain", [&] { later_process_ran = true; });
  const run_result r = region.run(mode::sequential);
  REQUIRE(r.status == run_status::empty_read);
  REQUIRE(r.message == "empty read: PE_0_1 reads fifo_A_PE_0_1 (empty; 2 written, 2 read)");
  REQUIRE(!later_process_ran);
}

TEST_CASE("a process that throws fails the run and releases the others", "[sim][stream]") {
  hls::stream<int, 1> s("s");
  dataflow region;
  region.add("waiting", [&] { s.read(); });
  region.add("failing", [&] { throw std::runtime_error("boom"); });
  for (mode m : {mode::concurrent, mode::sequential}) {
    const run_result r = region.run(m);
    REQUIRE(r.status == (m == mode::concurrent ? run_status::error : run_status::empty_read));
    if (m == mode::concurrent) REQUIRE(r.message == "error: failing threw: boom");
  }
}

TEST_CASE("processes that only poll are stopped by the stall watchdog", "[sim][stream]") {
  hls::stream<int> never("never");
  dataflow region;
  region.add("P", [&] {
    int v;
    while (!never.read_nb(v)) {
    }
  });
  region.add("Q", [&] {
    while (never.empty()) {
    }
  });
  sadsl::sim::run_options options;
  options.stall_timeout = std::chrono::milliseconds(100);
  const run_result r = region.run(mode::concurrent, options);
  REQUIRE(r.status == run_status::stall);
  REQUIRE(r.message == "stall: no token moved for 100 ms; running: P, Q");
}

TEST_CASE("bounded FIFOs in concurrent runs: full, write_nb, capacity", "[sim][stream]") {
  hls::stream<int, 2> s("s");
  hls::stream<int, 1> go("go");
  bool full_after_two = false, write_nb_refused = true, nb_read_ok = false;
  unsigned capacity = 0, size_after_two = 0;
  int first = -1;
  dataflow region;
  region.add("writer", [&] {
    s.write(1);
    s.write(2);
    full_after_two = s.full();
    size_after_two = s.size();
    capacity = s.capacity();
    write_nb_refused = !s.write_nb(3);
    go.write(0);
  });
  region.add("reader", [&] {
    go.read();
    nb_read_ok = s.read_nb(first);
    s.read();
  });
  REQUIRE(region.run(mode::concurrent).ok());
  CHECK(full_after_two);
  CHECK(size_after_two == 2);
  CHECK(capacity == 2);
  CHECK(write_nb_refused);
  CHECK(nb_read_ok);
  CHECK(first == 1);
}

TEST_CASE("token counts cover one run, including streams created inside it", "[sim][stream]") {
  hls::stream<int> input("input");
  for (int i = 0; i < 5; ++i) input.write(i);  // written before the run: not counted in it
  dataflow region;
  region.add("stage", [&] {
    hls::stream<int, 2> local("local");
    for (int i = 0; i < 5; ++i) local.write(input.read());
    for (int i = 0; i < 5; ++i) local.read();
  });
  const run_result r = region.run(mode::sequential);
  REQUIRE(r.ok());
  REQUIRE(r.find_stream("input")->written == 0);
  REQUIRE(r.find_stream("input")->read == 5);
  REQUIRE(r.find_stream("local") != nullptr);
  REQUIRE(r.find_stream("local")->written == 5);
  const std::vector<sadsl::sim::stream_stats> live = sadsl::sim::list_streams();
  bool found = false;
  for (const sadsl::sim::stream_stats& s : live)
    if (s.name == "input") found = s.written == 5 && s.read == 5;
  REQUIRE(found);
}

TEST_CASE("runs do not nest", "[sim][stream]") {
  dataflow inner;
  inner.add("inner", [] {});
  dataflow outer;
  outer.add("outer", [&] { inner.run(mode::sequential); });
  const run_result r = outer.run(mode::sequential);
  REQUIRE(r.status == run_status::error);
  REQUIRE(r.message == "error: outer threw: sadsl::sim: a dataflow run is already in progress");
  REQUIRE(inner.run(mode::sequential).ok());  // and the runner is usable afterwards
}

TEST_CASE("a deadlocked region can be fixed and run again", "[sim][stream]") {
  for (int attempt = 0; attempt < 20; ++attempt) {
    hls::stream<int, 1> x("x"), y("y");
    dataflow broken;
    broken.add("P", [&] { y.write(x.read()); }).add("Q", [&] { x.write(y.read()); });
    REQUIRE(broken.run(mode::concurrent).message == "deadlock: P waits to read x (empty); Q waits to read y (empty)");
    dataflow fixed;
    fixed.add("P", [&] { x.write(1); }).add("Q", [&] { y.write(x.read()); }).add("R", [&] { y.read(); });
    REQUIRE(fixed.run(mode::concurrent).ok());
  }
}

TEST_CASE("parse_mode", "[sim][stream]") {
  REQUIRE(sadsl::sim::parse_mode("sequential") == mode::sequential);
  REQUIRE(sadsl::sim::parse_mode("concurrent") == mode::concurrent);
  REQUIRE_THROWS_WITH(sadsl::sim::parse_mode("csim"),
                      "sadsl::sim: unknown simulation mode 'csim' (sequential or concurrent)");
}
