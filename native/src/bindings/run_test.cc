// start(spec, onProgress, done): one test as a job (bindings/job.h) — the spec copied into plain
// C++ data here, on the JS thread; the test on a std::thread of its own; progress coalesced;
// `done` called exactly once. ioAlignment(path): what direct I/O needs on a file system.
#include "bindings/run_test.h"

#include "bindings/convert.h"
#include "bindings/job.h"
#include "engine/engine.h"
#include "platform/platform.h"

namespace dd::bindings {

namespace {

using TestTraits =
    JobTraits<Spec, Result, Progress, ProgressSink, SpecFromJs, RunTest, ResultToJs, ProgressToJs>;

}  // namespace

Napi::Value Start(const Napi::CallbackInfo& info) {
  return StartJob<TestTraits>(
      info, "start(spec, onProgress, done) expects an object and a function", "diskdial-test");
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

}  // namespace dd::bindings
