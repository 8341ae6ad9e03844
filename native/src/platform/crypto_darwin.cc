// macOS: SHA-2 from CommonCrypto (libSystem), which uses the CPU's SHA instructions on Apple
// silicon. Its lengths are CC_LONG (32-bit), so large updates are fed in pieces.
#include <CommonCrypto/CommonDigest.h>

#include <algorithm>
#include <cstdint>

#include "platform/crypto.h"

namespace dd::platform {

namespace {

constexpr size_t kMaxPiece = 1u << 30;  // well inside CC_LONG

class Sha256Hasher final : public Hasher {
 public:
  Sha256Hasher() { CC_SHA256_Init(&ctx_); }
  bool Update(const void* data, size_t len) override {
    const auto* p = static_cast<const unsigned char*>(data);
    while (len > 0) {
      const size_t n = std::min(len, kMaxPiece);
      CC_SHA256_Update(&ctx_, p, static_cast<CC_LONG>(n));
      p += n;
      len -= n;
    }
    return true;
  }
  std::string FinalHex() override {
    unsigned char md[CC_SHA256_DIGEST_LENGTH];
    CC_SHA256_Final(md, &ctx_);
    return ToHex(md, sizeof md);
  }

 private:
  CC_SHA256_CTX ctx_;
};

class Sha512Hasher final : public Hasher {
 public:
  Sha512Hasher() { CC_SHA512_Init(&ctx_); }
  bool Update(const void* data, size_t len) override {
    const auto* p = static_cast<const unsigned char*>(data);
    while (len > 0) {
      const size_t n = std::min(len, kMaxPiece);
      CC_SHA512_Update(&ctx_, p, static_cast<CC_LONG>(n));
      p += n;
      len -= n;
    }
    return true;
  }
  std::string FinalHex() override {
    unsigned char md[CC_SHA512_DIGEST_LENGTH];
    CC_SHA512_Final(md, &ctx_);
    return ToHex(md, sizeof md);
  }

 private:
  CC_SHA512_CTX ctx_;
};

}  // namespace

std::unique_ptr<Hasher> MakeHasher(HashAlgo algo, Status*) {
  if (algo == HashAlgo::kSha512) return std::make_unique<Sha512Hasher>();
  return std::make_unique<Sha256Hasher>();
}

std::string CryptoProvider() { return "CommonCrypto (macOS)"; }

}  // namespace dd::platform
