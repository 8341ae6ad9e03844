// The addon's exports, and nothing else.
#include <napi.h>

#include "bindings/cipher.h"
#include "bindings/hash.h"
#include "bindings/job.h"
#include "bindings/run_test.h"
#include "engine/engine.h"

namespace {

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("version", Napi::String::New(env, dd::kEngineVersion));
  exports.Set("start", Napi::Function::New(env, dd::bindings::Start, "start"));
  exports.Set("ioAlignment", Napi::Function::New(env, dd::bindings::IoAlignment, "ioAlignment"));
  exports.Set("hash", Napi::Function::New(env, dd::bindings::Hash, "hash"));
  exports.Set("cipherBench", Napi::Function::New(env, dd::bindings::CipherBench, "cipherBench"));
  exports.Set("cryptoProvider", dd::bindings::CryptoProvider(env));
  dd::bindings::RegisterCleanup(env);
  return exports;
}

}  // namespace

NODE_API_MODULE(diskdial, Init)
