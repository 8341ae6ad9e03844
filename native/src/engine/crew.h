// The untimed-setup crew shared by the engine's in-memory and streaming measurements (hash.cc,
// cipher.cc): bodies on threads of their own set up, wait at one barrier and start together at t0
// while the calling thread reports progress. Plain C++17.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "platform/platform.h"

namespace dd {

class AlignedBuffer {
 public:
  AlignedBuffer(size_t size, size_t align) : p_(platform::AllocAligned(size, align)) {
    // Touched now, in untimed setup, so no page is first faulted in inside the timed region.
    if (p_) std::memset(p_, 0, size);
  }
  ~AlignedBuffer() { platform::FreeAligned(p_); }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  void* get() const { return p_; }

 private:
  void* p_;
};

struct Rates {
  double elapsed, inst_mbps, avg_mbps;
};

// Turns a running byte count into rates for progress: instantaneous over the last report, average
// since t0.
class RateMeter {
 public:
  Rates At(uint64_t now, uint64_t t0, uint64_t done) {
    if (!last_t_) last_t_ = t0;
    const double dt = (now - last_t_) / 1e9, elapsed = (now - t0) / 1e9;
    const Rates r{elapsed, dt > 0 ? (done - last_bytes_) / dt / 1e6 : 0.0,
                  elapsed > 0 ? done / elapsed / 1e6 : 0.0};
    last_t_ = now;
    last_bytes_ = done;
    return r;
  }

 private:
  uint64_t last_t_ = 0, last_bytes_ = 0;
};

// The start barrier and the job thread's progress loop, shared by the three modes.
class Crew {
 public:
  // Called by each body once its setup is done (or failed): waits until every body is ready.
  void Ready() {
    std::unique_lock<std::mutex> lk(mu_);
    ++ready_;
    cv_.notify_all();
    cv_.wait(lk, [&] { return go_; });
  }
  uint64_t t0() const { return t0_; }  // valid once Ready() has returned

  // Runs each body on a thread of its own, reports progress every interval from this thread
  // (and once at the end), and returns when every body has returned and been joined.
  inline void Run(const std::vector<std::function<void()>>& bodies, uint32_t interval_ms,
                  const std::function<void(uint64_t now)>& report) {
    std::mutex done_mu;
    std::condition_variable done_cv;
    size_t finished = 0;
    std::vector<std::thread> threads;
    threads.reserve(bodies.size());
    for (const auto& body : bodies)
      threads.emplace_back([&] {
        body();
        std::lock_guard<std::mutex> lk(done_mu);
        ++finished;
        done_cv.notify_one();
      });
    {
      std::unique_lock<std::mutex> lk(mu_);
      cv_.wait(lk, [&] { return ready_ == bodies.size(); });
      t0_ = platform::NowNs();
      go_ = true;
    }
    cv_.notify_all();
    {
      std::unique_lock<std::mutex> lk(done_mu);
      while (!done_cv.wait_for(lk, std::chrono::milliseconds(interval_ms),
                               [&] { return finished == bodies.size(); })) {
        lk.unlock();
        report(platform::NowNs());
        lk.lock();
      }
    }
    for (auto& t : threads) t.join();
    report(platform::NowNs());
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  size_t ready_ = 0;
  bool go_ = false;
  uint64_t t0_ = 0;
};

}  // namespace dd
