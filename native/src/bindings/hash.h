// The addon's hash verb: hash(spec, onProgress, done) -> {cancel()}, one hash measurement as a job
// (bindings/job.h); and the crypto library's name.
#pragma once

#include <napi.h>

namespace dd::bindings {

Napi::Value Hash(const Napi::CallbackInfo& info);
Napi::String CryptoProvider(Napi::Env env);

}  // namespace dd::bindings
