// macOS: SHA-2 and AES-XTS from CommonCrypto (libSystem), which uses the CPU's SHA and AES
// instructions on Apple silicon and Intel. AES-XTS is the mode APFS encrypts with; CommonCrypto
// offers apps no AES-GCM, and the kernel's cipher is measured on Linux only. Its digest lengths
// are CC_LONG (32-bit), so large updates are fed in pieces.
#include <CommonCrypto/CommonCryptor.h>
#include <CommonCrypto/CommonDigest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

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

// kCCModeXTS. Newer SDKs dropped it from the public CommonCryptor.h, though libcommonCrypto still
// implements it (CommonCryptorSPI.h); the value is its ABI. If a release ever refuses it,
// MakeCipher says so in words.
constexpr CCMode kModeXts = 8;

// AES-256-XTS: one cryptor with the two keys; each data unit resets the tweak to its number
// (little-endian, as the Linux engine) and is encrypted in one update.
class XtsCipher final : public Cipher {
 public:
  XtsCipher(CCCryptorRef ref, uint32_t unit) : ref_(ref), unit_(unit) {}
  ~XtsCipher() override { CCCryptorRelease(ref_); }
  XtsCipher(const XtsCipher&) = delete;
  XtsCipher& operator=(const XtsCipher&) = delete;

  bool Encrypt(const unsigned char* in, unsigned char* out, size_t len,
               uint64_t first_unit) override {
    for (size_t pos = 0; pos < len; pos += unit_) {
      unsigned char iv[16] = {};
      const uint64_t n = first_unit++;
      for (int i = 0; i < 8; ++i) iv[i] = static_cast<unsigned char>(n >> (8 * i));
      size_t moved = 0;
      if (CCCryptorReset(ref_, iv) != kCCSuccess ||
          CCCryptorUpdate(ref_, in + pos, unit_, out + pos, unit_, &moved) != kCCSuccess ||
          moved != unit_)
        return false;
    }
    return true;
  }

 private:
  CCCryptorRef ref_;
  uint32_t unit_;
};

}  // namespace

std::unique_ptr<Cipher> MakeCipher(CipherAlgo algo, const unsigned char* key, uint32_t data_unit,
                                   Status* err) {
  if (algo != CipherAlgo::kAes256Xts) {
    *err = Status::Errno(ENOTSUP, "", "",
                         algo == CipherAlgo::kAes256Gcm
                             ? "CommonCrypto offers apps no AES-GCM; measure aes-256-xts"
                             : "the kernel's own cipher is measured on Linux only");
    return nullptr;
  }
  CCCryptorRef ref = nullptr;
  const CCCryptorStatus st =
      CCCryptorCreateWithMode(kCCEncrypt, kModeXts, kCCAlgorithmAES, ccNoPadding, nullptr, key, 32,
                              key + 32, 32, 0, 0, &ref);
  if (st != kCCSuccess) {
    *err = Status::Errno(ENOTSUP, "CCCryptorCreateWithMode", "",
                         "CommonCrypto refused AES-XTS (status " + std::to_string(st) + ")");
    return nullptr;
  }
  return std::make_unique<XtsCipher>(ref, data_unit);
}

std::string CipherProvider(CipherAlgo) { return CryptoProvider(); }

std::unique_ptr<Hasher> MakeHasher(HashAlgo algo, Status*) {
  if (algo == HashAlgo::kSha512) return std::make_unique<Sha512Hasher>();
  return std::make_unique<Sha256Hasher>();
}

std::string CryptoProvider() { return "CommonCrypto (macOS)"; }

}  // namespace dd::platform
