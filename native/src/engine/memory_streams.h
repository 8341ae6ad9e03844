// The streams of an in-memory measurement (the Hash test's memory mode, the cipher ceiling): each
// stream sets up untimed on a thread of its own (its buffer allocated, touched and filled with
// incompressible bytes, its context made), then all start together at t0 and work on their buffer
// over and over until the time is up, a stream fails or `cancel` is set. Plain C++17.
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/crew.h"
#include "engine/prng.h"
#include "engine/status.h"
#include "platform/platform.h"

namespace dd {

struct MemoryStreamsSpec {
  uint32_t threads;
  double seconds;
  size_t buffer_bytes;
  uint64_t fill_seed;  // stream i fills its buffer from Prng(fill_seed + i)
  const char* use;     // what the buffer is for, in the out-of-memory error: "hash", "encrypt"
  uint32_t progress_interval_ms;
};

struct MemoryStreamsTotals {
  uint64_t bytes = 0;
  uint64_t t0 = 0, end_ns = 0;  // the common start; the last stream's end
};

// make(index, &err) -> std::unique_ptr<Work>, called in the stream's untimed setup; null (err set)
// stops every stream. Work::Step(data, len, &err) goes once over (part of) the buffer and returns
// the bytes done, 0 (err set) on failure; Work::Finish(&err) runs, timed, after the last step.
// report(now, t0, bytes_done) is called on this thread every interval and once at the end.
// Returns the first stream's error, else Ok with the totals.
template <class Make, class Report>
Status RunMemoryStreams(const MemoryStreamsSpec& spec, const std::atomic<bool>& cancel,
                        const Make& make, const Report& report, MemoryStreamsTotals* out) {
  // The clock is read about every kClockEvery bytes (a VM's clock can cost a microsecond a read),
  // so the deadline and a cancel are still seen within a fraction of a millisecond.
  constexpr uint64_t kClockEvery = 256 << 10;
  struct alignas(64) Stream {
    std::atomic<uint64_t> progress{0};  // written by this stream only
    uint64_t bytes = 0, end_ns = 0;
    Status err;
  };

  std::vector<std::unique_ptr<Stream>> streams;
  for (uint32_t i = 0; i < spec.threads; ++i) streams.push_back(std::make_unique<Stream>());
  std::atomic<bool> stop{false};
  Crew crew;
  const uint64_t duration_ns = static_cast<uint64_t>(spec.seconds * 1e9);
  const size_t len = spec.buffer_bytes;

  auto body = [&](uint32_t index) {
    Stream& s = *streams[index];
    AlignedBuffer buf(len, 64);
    decltype(make(index, &s.err)) work;
    if (buf.get()) {
      Prng(spec.fill_seed + index).Fill(buf.get(), len);
      work = make(index, &s.err);
    } else {
      s.err = Status::Errno(ENOMEM, "malloc", "",
                            std::string("could not allocate the buffer to ") + spec.use);
    }
    if (!work) stop = true;
    crew.Ready();
    if (!work) return;

    const uint64_t deadline = crew.t0() + duration_ns;
    auto* data = static_cast<unsigned char*>(buf.get());
    uint64_t since_clock = 0;
    while (!stop.load(std::memory_order_relaxed) && !cancel.load(std::memory_order_relaxed)) {
      const size_t n = work->Step(data, len, &s.err);
      if (n == 0) {
        stop = true;
        break;
      }
      s.bytes += n;
      since_clock += n;
      if (since_clock >= kClockEvery) {
        since_clock = 0;
        s.progress.store(s.bytes, std::memory_order_relaxed);
        if (platform::NowNs() >= deadline) break;
      }
    }
    work->Finish(&s.err);
    s.progress.store(s.bytes, std::memory_order_relaxed);
    s.end_ns = platform::NowNs();
  };
  std::vector<std::function<void()>> bodies;
  for (uint32_t i = 0; i < spec.threads; ++i) bodies.push_back([&body, i] { body(i); });
  crew.Run(bodies, spec.progress_interval_ms, [&](uint64_t now) {
    uint64_t done = 0;
    for (auto& s : streams) done += s->progress.load(std::memory_order_relaxed);
    report(now, crew.t0(), done);
  });

  out->t0 = out->end_ns = crew.t0();
  out->bytes = 0;
  for (auto& s : streams) {
    if (!s->err.ok()) return s->err;
    out->bytes += s->bytes;
    out->end_ns = std::max(out->end_ns, s->end_ns);
  }
  return Status::Ok();
}

}  // namespace dd
