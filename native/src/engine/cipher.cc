// The cipher ceiling: each stream sets up untimed (its own buffer, filled with incompressible
// bytes and touched, and its own cipher context), then all start together at t0 and encrypt their
// block in place over and over, as `openssl speed -evp` does, until the time is up.
#include "engine/cipher.h"

#include <algorithm>
#include <cerrno>
#include <functional>
#include <memory>
#include <vector>

#include "engine/crew.h"
#include "engine/prng.h"
#include "platform/crypto.h"
#include "platform/platform.h"

namespace dd {

namespace {

// The clock is read about every kClockEvery bytes (a VM's clock can cost a microsecond a read),
// so the deadline and a cancel are still seen within a fraction of a millisecond.
constexpr uint64_t kClockEvery = 256 << 10;

struct alignas(64) Stream {
  std::atomic<uint64_t> progress{0};  // written by this stream only
  uint64_t bytes = 0, end_ns = 0;
  Status err;
};

Status EncryptFailed(CipherAlgo algo) {
  return Status::Errno(
      EIO, "encrypt", "",
      std::string("the crypto library failed to encrypt with ") + CipherAlgoName(algo));
}

}  // namespace

Status RunCipher(const CipherSpec& spec_in, CipherProgressSink* sink,
                 const std::atomic<bool>& cancel, CipherResult* res) {
  CipherSpec spec = spec_in;
  if (Status st = NormalizeCipher(&spec); !st.ok()) return st;
  res->spec = spec;
  res->cancelled = false;
  res->provider = platform::CipherProvider(spec.algo);

  std::vector<std::unique_ptr<Stream>> streams;
  for (uint32_t i = 0; i < spec.threads; ++i) streams.push_back(std::make_unique<Stream>());
  std::atomic<bool> stop{false};
  Crew crew;
  const uint64_t duration_ns = static_cast<uint64_t>(spec.seconds * 1e9);
  const size_t len = static_cast<size_t>(spec.block_bytes);
  const uint64_t units = spec.block_bytes / spec.data_unit;

  auto body = [&](uint32_t index) {
    Stream& s = *streams[index];
    AlignedBuffer buf(len, 64);
    std::unique_ptr<platform::Cipher> cipher;
    if (buf.get()) {
      Prng(0x6469736b63697068ULL + index).Fill(buf.get(), len);
      unsigned char key[platform::kCipherKeyBytes];
      Prng(0x6b6579ULL + index).Fill(key, sizeof key);  // XTS's two halves differ
      cipher = platform::MakeCipher(spec.algo, key, spec.data_unit, &s.err);
    } else {
      s.err = Status::Errno(ENOMEM, "malloc", "", "could not allocate the buffer to encrypt");
    }
    if (!cipher) stop = true;
    crew.Ready();
    if (!cipher) return;

    const uint64_t deadline = crew.t0() + duration_ns;
    auto* data = static_cast<unsigned char*>(buf.get());
    uint64_t unit = 0, since_clock = 0;
    while (!stop.load(std::memory_order_relaxed) && !cancel.load(std::memory_order_relaxed)) {
      if (!cipher->Encrypt(data, data, len, unit)) {
        s.err = EncryptFailed(spec.algo);
        stop = true;
        break;
      }
      unit += units;
      s.bytes += len;
      since_clock += len;
      if (since_clock >= kClockEvery) {
        since_clock = 0;
        s.progress.store(s.bytes, std::memory_order_relaxed);
        if (platform::NowNs() >= deadline) break;
      }
    }
    s.progress.store(s.bytes, std::memory_order_relaxed);
    s.end_ns = platform::NowNs();
  };
  std::vector<std::function<void()>> bodies;
  for (uint32_t i = 0; i < spec.threads; ++i) bodies.push_back([&body, i] { body(i); });
  uint64_t last_t = 0, last_bytes = 0;
  crew.Run(bodies, spec.progress_interval_ms, [&](uint64_t now) {
    if (!sink) return;
    uint64_t done = 0;
    for (auto& s : streams) done += s->progress.load(std::memory_order_relaxed);
    const uint64_t t0 = crew.t0();
    if (!last_t) last_t = t0;
    const double dt = (now - last_t) / 1e9, elapsed = (now - t0) / 1e9;
    sink->OnProgress({done, elapsed, spec.seconds, dt > 0 ? (done - last_bytes) / dt / 1e6 : 0.0,
                      elapsed > 0 ? done / elapsed / 1e6 : 0.0});
    last_t = now;
    last_bytes = done;
  });

  uint64_t bytes = 0, end = crew.t0();
  for (auto& s : streams) {
    if (!s->err.ok()) return s->err;
    bytes += s->bytes;
    end = std::max(end, s->end_ns);
  }
  res->cancelled = cancel.load();
  res->bytes = bytes;
  res->seconds = (end - crew.t0()) / 1e9;
  res->mbps = res->seconds > 0 ? bytes / res->seconds / 1e6 : 0;
  return Status::Ok();
}

}  // namespace dd
