// cipherBench(spec, onProgress, done): the cipher ceiling as a job (bindings/job.h), exactly as
// hash() runs the Hash test.
#include "bindings/cipher.h"

#include "bindings/convert.h"
#include "bindings/job.h"
#include "engine/cipher.h"

namespace dd::bindings {

namespace {

struct CipherTraits {
  using Spec = CipherSpec;
  using Result = CipherResult;
  using Progress = CipherProgress;
  using Sink = CipherProgressSink;
  static Spec SpecFromJs(const Napi::Object& o) { return CipherSpecFromJs(o); }
  static Status Run(const Spec& s, Sink* sink, const std::atomic<bool>& cancel, Result* out) {
    return RunCipher(s, sink, cancel, out);
  }
  static Napi::Object ResultToJs(Napi::Env env, const Result& r) {
    return CipherResultToJs(env, r);
  }
  static Napi::Object ProgressToJs(Napi::Env env, const Progress& p) {
    return CipherProgressToJs(env, p);
  }
};

}  // namespace

Napi::Value CipherBench(const Napi::CallbackInfo& info) {
  return StartJob<CipherTraits>(
      info, "cipherBench(spec, onProgress, done) expects an object and a function",
      "diskdial-cipher");
}

}  // namespace dd::bindings
