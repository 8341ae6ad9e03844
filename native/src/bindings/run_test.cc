// start(spec, onProgress, done): the spec is copied into plain C++ data here, on the JS thread;
// the test then runs on a std::thread of its own (not the libuv pool: a minutes-long benchmark
// would starve fs calls in the same process). Progress is coalesced: at most one progress call is
// queued at a time and it carries the newest figures. `done` is called exactly once.
#include "bindings/run_test.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "bindings/convert.h"
#include "engine/engine.h"
#include "platform/platform.h"

namespace dd::bindings {

namespace {

struct JobState final : ProgressSink {
  Spec spec;
  std::atomic<bool> cancel{false};
  std::mutex mu;
  Progress latest{};
  std::atomic<bool> progress_queued{false};
  Status status;
  Result result;
  Napi::ThreadSafeFunction tsfn;
  Napi::FunctionReference on_progress;
  Napi::FunctionReference done;
  std::thread thread;

  void OnProgress(const Progress& p) override;
};

std::mutex g_jobs_mu;
std::set<std::shared_ptr<JobState>> g_jobs;

void Forget(const std::shared_ptr<JobState>& s) {
  std::lock_guard<std::mutex> lk(g_jobs_mu);
  g_jobs.erase(s);
}

void JobState::OnProgress(const Progress& p) {
  {
    std::lock_guard<std::mutex> lk(mu);
    latest = p;
  }
  if (on_progress.IsEmpty() || progress_queued.exchange(true)) return;
  tsfn.NonBlockingCall([this](Napi::Env env, Napi::Function) {
    Progress p;
    {
      std::lock_guard<std::mutex> lk(mu);
      p = latest;
    }
    progress_queued = false;
    on_progress.Call({ProgressToJs(env, p)});
  });
}

}  // namespace

Napi::Value Start(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsObject() || !info[2].IsFunction())
    throw Napi::TypeError::New(env,
                               "start(spec, onProgress, done) expects an object and a function");
  if (!info[1].IsFunction() && !info[1].IsNull() && !info[1].IsUndefined())
    throw Napi::TypeError::New(env, "onProgress must be a function or null");

  auto state = std::make_shared<JobState>();
  state->spec = SpecFromJs(info[0].As<Napi::Object>());
  if (info[1].IsFunction()) state->on_progress = Napi::Persistent(info[1].As<Napi::Function>());
  state->done = Napi::Persistent(info[2].As<Napi::Function>());
  state->tsfn =
      Napi::ThreadSafeFunction::New(env, info[2].As<Napi::Function>(), "diskdial-test", 0, 1);
  {
    std::lock_guard<std::mutex> lk(g_jobs_mu);
    g_jobs.insert(state);
  }

  state->thread = std::thread([state] {
    state->status = RunTest(state->spec, state.get(), state->cancel, &state->result);
    state->tsfn.BlockingCall([state](Napi::Env env, Napi::Function) {
      if (state->thread.joinable()) state->thread.join();
      Forget(state);
      Napi::Function done = state->done.Value();
      state->on_progress.Reset();
      if (state->status.ok())
        done.Call({env.Null(), ResultToJs(env, state->result)});
      else
        done.Call({StatusToJs(env, state->status).Value(), env.Null()});
    });
    state->tsfn.Release();
  });

  Napi::Object handle = Napi::Object::New(env);
  std::weak_ptr<JobState> weak = state;
  handle.Set("cancel", Napi::Function::New(env, [weak](const Napi::CallbackInfo& ci) {
               if (auto s = weak.lock()) s->cancel = true;
               return ci.Env().Undefined();
             }));
  return handle;
}

Napi::Value IoAlignment(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsString())
    throw Napi::TypeError::New(env, "ioAlignment(path) expects a string");
  platform::Alignment a = platform::IoAlignment(info[0].As<Napi::String>().Utf8Value());
  Napi::Object o = Napi::Object::New(env);
  o.Set("offset", a.offset);
  o.Set("memory", a.memory);
  o.Set("source", a.source);
  return o;
}

void RegisterCleanup(Napi::Env env) {
  env.AddCleanupHook([] {
    std::set<std::shared_ptr<JobState>> jobs;
    {
      std::lock_guard<std::mutex> lk(g_jobs_mu);
      jobs.swap(g_jobs);
    }
    for (auto& j : jobs) {
      j->cancel = true;
      if (j->thread.joinable()) j->thread.join();
    }
  });
}

}  // namespace dd::bindings
