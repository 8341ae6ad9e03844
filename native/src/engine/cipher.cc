// The cipher ceiling: each stream sets up untimed (its own buffer, filled with incompressible
// bytes and touched, and its own cipher context), then all start together at t0 and encrypt their
// block in place over and over, as `openssl speed -evp` does, until the time is up.
#include "engine/cipher.h"

#include <cerrno>
#include <memory>
#include <string>
#include <utility>

#include "engine/memory_streams.h"
#include "engine/prng.h"
#include "platform/crypto.h"
#include "platform/platform.h"

namespace dd {

namespace {

Status EncryptFailed(CipherAlgo algo) {
  return Status::Errno(
      EIO, "encrypt", "",
      std::string("the crypto library failed to encrypt with ") + CipherAlgoName(algo));
}

// One stream's work: its own context encrypting its block in place, the tweak numbering the data
// units on from where the last block ended.
class EncryptStream {
 public:
  EncryptStream(const CipherSpec& spec, std::unique_ptr<platform::Cipher> cipher)
      : spec_(spec), cipher_(std::move(cipher)) {}
  size_t Step(unsigned char* data, size_t len, Status* err) {
    if (!cipher_->Encrypt(data, data, len, unit_)) {
      *err = EncryptFailed(spec_.algo);
      return 0;
    }
    unit_ += spec_.block_bytes / spec_.data_unit;
    return len;
  }
  void Finish(Status*) {}

 private:
  const CipherSpec& spec_;
  std::unique_ptr<platform::Cipher> cipher_;
  uint64_t unit_ = 0;
};

}  // namespace

Status RunCipher(const CipherSpec& spec_in, CipherProgressSink* sink,
                 const std::atomic<bool>& cancel, CipherResult* res) {
  CipherSpec spec = spec_in;
  if (Status st = NormalizeCipher(&spec); !st.ok()) return st;
  res->spec = spec;
  res->cancelled = false;
  res->provider = platform::CipherProvider(spec.algo);

  // threads, seconds, buffer bytes, fill seed, what the buffer is for, progress interval.
  const MemoryStreamsSpec streams{
      spec.threads,          spec.seconds, static_cast<size_t>(spec.block_bytes),
      0x6469736b63697068ULL, "encrypt",    spec.progress_interval_ms};
  auto make = [&](uint32_t index, Status* err) -> std::unique_ptr<EncryptStream> {
    unsigned char key[platform::kCipherKeyBytes];
    Prng(0x6b6579ULL + index).Fill(key, sizeof key);  // XTS's two halves differ
    auto cipher = platform::MakeCipher(spec.algo, key, spec.data_unit, err);
    return cipher ? std::make_unique<EncryptStream>(spec, std::move(cipher)) : nullptr;
  };
  RateMeter meter;
  auto report = [&](uint64_t now, uint64_t t0, uint64_t done) {
    if (!sink) return;
    const Rates r = meter.At(now, t0, done);
    sink->OnProgress({done, r.elapsed, spec.seconds, r.inst_mbps, r.avg_mbps});
  };
  MemoryStreamsTotals totals;
  if (Status st = RunMemoryStreams(streams, cancel, make, report, &totals); !st.ok()) return st;
  res->cancelled = cancel.load();
  res->bytes = totals.bytes;
  res->seconds = (totals.end_ns - totals.t0) / 1e9;
  res->mbps = res->seconds > 0 ? totals.bytes / res->seconds / 1e6 : 0;
  return Status::Ok();
}

}  // namespace dd
