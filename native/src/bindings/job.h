// One engine call (a test, a hash measurement) as a job: the spec is copied into plain C++ data on
// the JS thread, the work runs on a std::thread of its own (not the libuv pool: a minutes-long
// benchmark would starve fs calls in the same process), progress is coalesced (at most one
// progress call is queued at a time, carrying the newest figures), cancel is an atomic flag the
// engine checks between I/Os, and `done` is called exactly once. `start`, `hash` and
// `cipherBench` are each StartJob with their own JobTraits.
#pragma once

#include <napi.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "bindings/convert.h"
#include "engine/status.h"

namespace dd::bindings {

// What the registry and the environment's cleanup hook need of any job.
struct JobBase {
  virtual ~JobBase() = default;
  std::atomic<bool> cancel{false};
  std::thread thread;
};

void TrackJob(const std::shared_ptr<JobBase>& job);
void ForgetJob(const std::shared_ptr<JobBase>& job);
// Cancels and joins running jobs when the environment shuts down (worker exit, process exit), so
// no thread outlives the addon and no test file is left behind.
void RegisterCleanup(Napi::Env env);

// Traits name the job's plain data and its conversions:
//   Spec, Result, Progress; Sink (an engine sink class with OnProgress(const Progress&));
//   static Spec SpecFromJs(const Napi::Object&);            // throws a JS TypeError
//   static Status Run(const Spec&, Sink*, const std::atomic<bool>& cancel, Result*);
//   static Napi::Object ResultToJs(Napi::Env, const Result&);
//   static Napi::Object ProgressToJs(Napi::Env, const Progress&);
// JobTraits builds them from the engine's run function and the conversions in convert.h.
template <class SpecT, class ResultT, class ProgressT, class SinkT,
          SpecT (*kSpecFromJs)(const Napi::Object&),
          Status (*kRun)(const SpecT&, SinkT*, const std::atomic<bool>&, ResultT*),
          Napi::Object (*kResultToJs)(Napi::Env, const ResultT&),
          Napi::Object (*kProgressToJs)(Napi::Env, const ProgressT&)>
struct JobTraits {
  using Spec = SpecT;
  using Result = ResultT;
  using Progress = ProgressT;
  using Sink = SinkT;
  static Spec SpecFromJs(const Napi::Object& o) { return kSpecFromJs(o); }
  static Status Run(const Spec& s, Sink* sink, const std::atomic<bool>& cancel, Result* out) {
    return kRun(s, sink, cancel, out);
  }
  static Napi::Object ResultToJs(Napi::Env env, const Result& r) { return kResultToJs(env, r); }
  static Napi::Object ProgressToJs(Napi::Env env, const Progress& p) {
    return kProgressToJs(env, p);
  }
};
template <class Traits>
struct Job final : JobBase, Traits::Sink {
  typename Traits::Spec spec;
  std::mutex mu;
  typename Traits::Progress latest{};
  std::atomic<bool> progress_queued{false};
  Status status;
  typename Traits::Result result;
  Napi::ThreadSafeFunction tsfn;
  Napi::FunctionReference on_progress;
  Napi::FunctionReference done;

  // Called on the job's thread.
  void OnProgress(const typename Traits::Progress& p) override {
    {
      std::lock_guard<std::mutex> lk(mu);
      latest = p;
    }
    if (on_progress.IsEmpty() || progress_queued.exchange(true)) return;
    tsfn.NonBlockingCall([this](Napi::Env env, Napi::Function) {
      typename Traits::Progress copy;
      {
        std::lock_guard<std::mutex> lk(mu);
        copy = latest;
      }
      progress_queued = false;
      on_progress.Call({Traits::ProgressToJs(env, copy)});
    });
  }
};

// verb(spec, onProgress, done) -> {cancel()}. `usage` is the TypeError for bad arguments.
template <class Traits>
Napi::Value StartJob(const Napi::CallbackInfo& info, const char* usage, const char* resource) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsObject() || !info[2].IsFunction())
    throw Napi::TypeError::New(env, usage);
  if (!info[1].IsFunction() && !info[1].IsNull() && !info[1].IsUndefined())
    throw Napi::TypeError::New(env, "onProgress must be a function or null");

  auto state = std::make_shared<Job<Traits>>();
  state->spec = Traits::SpecFromJs(info[0].As<Napi::Object>());
  if (info[1].IsFunction()) state->on_progress = Napi::Persistent(info[1].As<Napi::Function>());
  state->done = Napi::Persistent(info[2].As<Napi::Function>());
  state->tsfn = Napi::ThreadSafeFunction::New(env, info[2].As<Napi::Function>(), resource, 0, 1);
  TrackJob(state);

  state->thread = std::thread([state] {
    state->status = Traits::Run(state->spec, state.get(), state->cancel, &state->result);
    state->tsfn.BlockingCall([state](Napi::Env env, Napi::Function) {
      if (state->thread.joinable()) state->thread.join();
      ForgetJob(state);
      Napi::Function done = state->done.Value();
      state->on_progress.Reset();
      if (state->status.ok())
        done.Call({env.Null(), Traits::ResultToJs(env, state->result)});
      else
        done.Call({StatusToJs(env, state->status).Value(), env.Null()});
    });
    state->tsfn.Release();
  });

  Napi::Object handle = Napi::Object::New(env);
  std::weak_ptr<Job<Traits>> weak = state;
  handle.Set("cancel", Napi::Function::New(env, [weak](const Napi::CallbackInfo& ci) {
               if (auto s = weak.lock()) s->cancel = true;
               return ci.Env().Undefined();
             }));
  return handle;
}

}  // namespace dd::bindings
