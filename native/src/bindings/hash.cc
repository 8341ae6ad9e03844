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

using HashTraits = JobTraits<HashSpec, HashResult, HashProgress, HashProgressSink, HashSpecFromJs,
                             RunHash, HashResultToJs, HashProgressToJs>;

}  // namespace

Napi::Value Hash(const Napi::CallbackInfo& info) {
  return StartJob<HashTraits>(info, "hash(spec, onProgress, done) expects an object and a function",
                              "diskdial-hash");
}

Napi::String CryptoProvider(Napi::Env env) {
  return Napi::String::New(env, platform::CryptoProvider());
}

}  // namespace dd::bindings
