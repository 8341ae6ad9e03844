// Linux: SHA-2 from OpenSSL's libcrypto through its EVP interface, which picks the CPU's SHA
// extensions (SHA-NI, ARMv8 SHA) when present — the same code `openssl speed -evp sha256` times.
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cerrno>

#include "platform/crypto.h"

namespace dd::platform {

namespace {

class EvpHasher final : public Hasher {
 public:
  explicit EvpHasher(EVP_MD_CTX* ctx) : ctx_(ctx) {}
  ~EvpHasher() override { EVP_MD_CTX_free(ctx_); }
  EvpHasher(const EvpHasher&) = delete;
  EvpHasher& operator=(const EvpHasher&) = delete;

  bool Update(const void* data, size_t len) override {
    return EVP_DigestUpdate(ctx_, data, len) == 1;
  }

  std::string FinalHex() override {
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_DigestFinal_ex(ctx_, md, &n) != 1) return {};
    return ToHex(md, n);
  }

 private:
  EVP_MD_CTX* ctx_;
};

}  // namespace

std::unique_ptr<Hasher> MakeHasher(HashAlgo algo, Status* err) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  if (!ctx) {
    *err = Status::Errno(ENOMEM, "EVP_MD_CTX_new", "", "OpenSSL could not allocate a digest");
    return nullptr;
  }
  const EVP_MD* md = algo == HashAlgo::kSha512 ? EVP_sha512() : EVP_sha256();
  if (EVP_DigestInit_ex(ctx, md, nullptr) != 1) {
    EVP_MD_CTX_free(ctx);
    *err = Status::Errno(ENOTSUP, "EVP_DigestInit_ex", "",
                         std::string("OpenSSL refused ") + HashAlgoName(algo));
    return nullptr;
  }
  return std::make_unique<EvpHasher>(ctx);
}

std::string CryptoProvider() {
  return std::string(OpenSSL_version(OPENSSL_VERSION)) + " (libcrypto)";
}

}  // namespace dd::platform
