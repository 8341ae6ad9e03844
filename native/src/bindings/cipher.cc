// cipherBench(spec, onProgress, done): the cipher ceiling as a job (bindings/job.h), exactly as
// hash() runs the Hash test.
#include "bindings/cipher.h"

#include "bindings/convert.h"
#include "bindings/job.h"
#include "engine/cipher.h"

namespace dd::bindings {

namespace {

using CipherTraits = JobTraits<CipherSpec, CipherResult, CipherProgress, CipherProgressSink,
                               CipherSpecFromJs, RunCipher, CipherResultToJs, CipherProgressToJs>;

}  // namespace

Napi::Value CipherBench(const Napi::CallbackInfo& info) {
  return StartJob<CipherTraits>(
      info, "cipherBench(spec, onProgress, done) expects an object and a function",
      "diskdial-cipher");
}

}  // namespace dd::bindings
