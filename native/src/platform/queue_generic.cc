// Generic I/O queues on top of ReadAt/WriteAt, for every OS: SyncQueue runs each op inline (queue
// depth 1, no hand-off cost); ThreadedQueue keeps one thread per slot so `depth` synchronous I/Os
// are outstanding at once. Used where no native async I/O applies (buffered modes, macOS, Windows).
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "platform/platform.h"

namespace dd::platform {

namespace {

// Moves up to max_n finished ops from `done` to `out`; returns how many.
int PopUpTo(std::deque<IoOp*>* done, IoOp** out, int max_n) {
  int k = 0;
  while (k < max_n && !done->empty()) {
    out[k++] = done->front();
    done->pop_front();
  }
  return k;
}

void Execute(Handle h, IoOp* op) {
  size_t done = 0;
  Status st = op->write ? WriteAt(h, op->buf, op->len, op->off, &done)
                        : ReadAt(h, op->buf, op->len, op->off, &done);
  op->result = st.ok() ? static_cast<int64_t>(done) : -static_cast<int64_t>(st.err);
}

class SyncQueue final : public IoQueue {
 public:
  explicit SyncQueue(Handle h) : h_(h) {}
  const char* name() const override { return "sync"; }
  int Submit(IoOp* const* ops, int n) override {
    for (int i = 0; i < n; ++i) {
      Execute(h_, ops[i]);
      done_.push_back(ops[i]);
    }
    return n;
  }
  int Reap(IoOp** out, int, int max_n, int) override { return PopUpTo(&done_, out, max_n); }

 private:
  Handle h_;
  std::deque<IoOp*> done_;
};

class ThreadedQueue final : public IoQueue {
 public:
  ThreadedQueue(Handle h, uint32_t depth) : h_(h) {
    for (uint32_t i = 0; i < depth; ++i) threads_.emplace_back([this] { Loop(); });
  }
  ~ThreadedQueue() override {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    pending_cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  const char* name() const override { return "threads"; }
  int Submit(IoOp* const* ops, int n) override {
    {
      std::lock_guard<std::mutex> lk(mu_);
      for (int i = 0; i < n; ++i) pending_.push_back(ops[i]);
    }
    if (n == 1)
      pending_cv_.notify_one();
    else
      pending_cv_.notify_all();
    return n;
  }
  int Reap(IoOp** out, int min_n, int max_n, int timeout_ms) override {
    std::unique_lock<std::mutex> lk(mu_);
    auto enough = [&] { return static_cast<int>(done_.size()) >= min_n; };
    if (timeout_ms < 0)
      done_cv_.wait(lk, enough);
    else
      done_cv_.wait_for(lk, std::chrono::milliseconds(timeout_ms), enough);
    return PopUpTo(&done_, out, max_n);
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lk(mu_);
    for (;;) {
      pending_cv_.wait(lk, [&] { return stop_ || !pending_.empty(); });
      if (stop_) return;
      IoOp* op = pending_.front();
      pending_.pop_front();
      lk.unlock();
      Execute(h_, op);
      lk.lock();
      done_.push_back(op);
      done_cv_.notify_one();
    }
  }

  Handle h_;
  std::mutex mu_;
  std::condition_variable pending_cv_, done_cv_;
  std::deque<IoOp*> pending_, done_;
  std::vector<std::thread> threads_;
  bool stop_ = false;
};

}  // namespace

std::unique_ptr<IoQueue> MakeSyncQueue(Handle h) { return std::make_unique<SyncQueue>(h); }

std::unique_ptr<IoQueue> MakeThreadedQueue(Handle h, uint32_t depth) {
  return std::make_unique<ThreadedQueue>(h, depth);
}

}  // namespace dd::platform
