// hash(spec, onProgress, done): the Hash test as a job (bindings/job.h), exactly as start() runs a
// test — spec copied and checked on the JS thread, the measurement on threads of its own,
// progress coalesced, `done` called once, cancel by flag.
#include "bindings/hash.h"

#include "bindings/convert.h"
#include "bindings/job.h"
#include "engine/hash.h"
#include "platform/crypto.h"

namespace dd::bindings {

namespace {

struct HashTraits {
  using Spec = HashSpec;
  using Result = HashResult;
  using Progress = HashProgress;
  using Sink = HashProgressSink;
  static Spec SpecFromJs(const Napi::Object& o) { return HashSpecFromJs(o); }
  static Status Run(const Spec& s, Sink* sink, const std::atomic<bool>& cancel, Result* out) {
    return RunHash(s, sink, cancel, out);
  }
  static Napi::Object ResultToJs(Napi::Env env, const Result& r) { return HashResultToJs(env, r); }
  static Napi::Object ProgressToJs(Napi::Env env, const Progress& p) {
    return HashProgressToJs(env, p);
  }
};

}  // namespace

Napi::Value Hash(const Napi::CallbackInfo& info) {
  return StartJob<HashTraits>(info, "hash(spec, onProgress, done) expects an object and a function",
                              "diskdial-hash");
}

Napi::String CryptoProvider(Napi::Env env) {
  return Napi::String::New(env, platform::CryptoProvider());
}

}  // namespace dd::bindings
