// The addon's cipher verb: cipherBench(spec, onProgress, done) -> {cancel()}, one in-memory
// encryption measurement (the cipher ceiling) as a job (bindings/job.h).
#pragma once

#include <napi.h>

namespace dd::bindings {

Napi::Value CipherBench(const Napi::CallbackInfo& info);

}  // namespace dd::bindings
