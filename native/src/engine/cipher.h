// The cipher ceiling: how fast this machine encrypts from memory, on `threads` streams that each
// own a context and a buffer (no storage involved). Plain C++17: no N-API here.
#pragma once

#include <atomic>

#include "engine/cipher_spec.h"
#include "engine/status.h"

namespace dd {

// Blocks until the measurement ends or `cancel` is set (checked between blocks). `sink` may be
// null; it is called from this (the calling) thread only.
Status RunCipher(const CipherSpec& spec, CipherProgressSink* sink, const std::atomic<bool>& cancel,
                 CipherResult* out);

}  // namespace dd
