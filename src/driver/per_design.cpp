#include "per_design.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

namespace sadsl::driver {

unsigned worker_count(unsigned threads, size_t count) {
  unsigned wanted = threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads;
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(wanted, count)));
}

void parallel_for(size_t count, unsigned threads, const std::function<void(unsigned worker, size_t index)>& job) {
  std::vector<std::exception_ptr> failed(count);
  std::atomic<size_t> next{0};
  // The sizes a scoped_sizes set on the calling thread hold on the helpers too.
  const detail::size_overrides sizes = detail::thread_size_overrides();
  auto work = [&](unsigned worker) {
    if (worker != 0) detail::thread_size_overrides() = sizes;
    for (size_t i = next++; i < count; i = next++) {
      try {
        job(worker, i);
      } catch (...) {
        failed[i] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned w = 1; w < worker_count(threads, count); ++w) {
    try {
      helpers.emplace_back(work, w);
    } catch (const std::system_error&) {
      break;  // no more threads: the ones started share the rest
    }
  }
  work(0);
  for (std::thread& t : helpers) t.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

namespace {

// A helper thread's own copy of the kernel and its designs, each of the caller's designs mapped
// to its twin (or nullptr).
struct twin_designs {
  kernel copy;  // declared first: the designs go before the context they live in
  std::vector<design> designs;
  std::vector<const design*> twin_of;
};

std::unique_ptr<twin_designs> make_twins(const std::vector<design>& ds, const std::vector<std::string>& descriptions,
                                         const design_options& options) {
  auto t = std::make_unique<twin_designs>(twin_designs{ds.front().band->source->kernel().with_own_context(), {}, {}});
  t->designs = designs(t->copy, options);
  std::map<std::string, const design*> by_description;
  for (const design& d : t->designs) by_description.emplace(d.str(), &d);
  for (const std::string& description : descriptions) {
    auto found = by_description.find(description);
    t->twin_of.push_back(found == by_description.end() ? nullptr : found->second);
  }
  return t;
}

}  // namespace

void for_each_design(const std::vector<design>& ds, const design_options& options, unsigned threads,
                     const std::function<void(size_t index, const design& d)>& job) {
  unsigned workers = worker_count(threads, ds.size());
  // The helpers copy the first design's kernel: a design of another kernel has no twin there
  // (an empty description matches none), however alike the two kernels print.
  std::vector<std::string> descriptions;
  if (workers > 1)
    for (const design& d : ds)
      descriptions.push_back(d.band->source->kernel().ctx() == ds.front().band->source->kernel().ctx() ? d.str() : "");
  std::vector<std::unique_ptr<twin_designs>> twins(workers);  // slot w: only worker w touches it
  std::vector<std::exception_ptr> setup_failed(workers);
  std::vector<std::exception_ptr> failed(ds.size());
  std::mutex leftovers_mutex;
  std::vector<size_t> leftovers;
  parallel_for(ds.size(), workers, [&](unsigned worker, size_t i) {
    const design* d = &ds[i];
    if (worker != 0) {
      if (!twins[worker] && !setup_failed[worker]) {
        try {
          twins[worker] = make_twins(ds, descriptions, options);
        } catch (...) {
          setup_failed[worker] = std::current_exception();
        }
      }
      d = twins[worker] ? twins[worker]->twin_of[i] : nullptr;
      if (!d) {
        std::lock_guard lock(leftovers_mutex);
        leftovers.push_back(i);
        return;
      }
    }
    try {
      job(i, *d);
    } catch (...) {
      failed[i] = std::current_exception();
    }
  });
  std::sort(leftovers.begin(), leftovers.end());
  for (size_t i : leftovers) {
    try {
      job(i, ds[i]);
    } catch (...) {
      failed[i] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
  // A copy that could not be made is a bug even though the calling thread did its share.
  for (const std::exception_ptr& e : setup_failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace sadsl::driver
