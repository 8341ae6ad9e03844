// The addon's test verbs: start a test on a thread of its own, report progress, cancel; query
// direct-I/O alignment. All N-API work happens on the JS thread; the engine's thread touches only
// plain data.
#pragma once

#include <napi.h>

namespace dd::bindings {

Napi::Value Start(const Napi::CallbackInfo& info);
Napi::Value IoAlignment(const Napi::CallbackInfo& info);

}  // namespace dd::bindings
