// The addon's verbs: start a test on a thread of its own, report progress, cancel; query direct-I/O
// alignment. All N-API work happens on the JS thread; the engine's thread touches only plain data.
#pragma once

#include <napi.h>

namespace dd::bindings {

Napi::Value Start(const Napi::CallbackInfo& info);
Napi::Value IoAlignment(const Napi::CallbackInfo& info);
// Cancels and joins running tests when the environment shuts down (worker exit, process exit),
// so no thread outlives the addon and no test file is left behind.
void RegisterCleanup(Napi::Env env);

}  // namespace dd::bindings
