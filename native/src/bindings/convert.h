// Conversions between JS values and the engine's plain data. With job.h, run_test.cc and hash.cc,
// the only code that knows N-API. Runs on the JS thread only.
#pragma once

#include <napi.h>

#include "engine/cipher_spec.h"
#include "engine/hash_spec.h"
#include "engine/result.h"
#include "engine/spec.h"
#include "engine/status.h"

namespace dd::bindings {

// Copies a JS spec object into plain data. Throws a JS TypeError naming the bad field.
Spec SpecFromJs(const Napi::Object& o);
Napi::Object SpecToJs(Napi::Env env, const Spec& s);
Napi::Object ResultToJs(Napi::Env env, const Result& r);
Napi::Object ProgressToJs(Napi::Env env, const Progress& p);
// The Hash test's spec (a TypeError naming the bad field), result and progress.
HashSpec HashSpecFromJs(const Napi::Object& o);
Napi::Object HashResultToJs(Napi::Env env, const HashResult& r);
Napi::Object HashProgressToJs(Napi::Env env, const HashProgress& p);
CipherSpec CipherSpecFromJs(const Napi::Object& o);
Napi::Object CipherResultToJs(Napi::Env env, const CipherResult& r);
Napi::Object CipherProgressToJs(Napi::Env env, const CipherProgress& p);
// A Node-style error: message, code, errno (negative, as Node does), syscall, path.
Napi::Error StatusToJs(Napi::Env env, const Status& st);

}  // namespace dd::bindings
