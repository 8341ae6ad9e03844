// Conversions between JS values and the engine's plain data. The only code besides run_test.cc
// that knows N-API. Runs on the JS thread only.
#pragma once

#include <napi.h>

#include "engine/result.h"
#include "engine/spec.h"
#include "engine/status.h"

namespace dd::bindings {

// Copies a JS spec object into plain data. Throws a JS TypeError naming the bad field.
Spec SpecFromJs(const Napi::Object& o);
Napi::Object SpecToJs(Napi::Env env, const Spec& s);
Napi::Object ResultToJs(Napi::Env env, const Result& r);
Napi::Object ProgressToJs(Napi::Env env, const Progress& p);
// A Node-style error: message, code, errno (negative, as Node does), syscall, path.
Napi::Error StatusToJs(Napi::Env env, const Status& st);

}  // namespace dd::bindings
