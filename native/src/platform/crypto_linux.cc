// Linux: SHA-2 and AES from OpenSSL's libcrypto through its EVP interface, which picks the CPU's
// SHA and AES extensions (SHA-NI, AES-NI, ARMv8 crypto) when present — the same code
// `openssl speed -evp sha256` / `-evp aes-256-xts` times. And the kernel's own xts(aes), which
// fscrypt and dm-crypt use, through an AF_ALG socket.
#include <linux/if_alg.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

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

// The IV of XTS data unit n: n as a little-endian 64-bit number, zero-padded to 16 bytes.
void UnitIv(uint64_t n, unsigned char iv[16]) {
  std::memset(iv, 0, 16);
  for (int i = 0; i < 8; ++i) iv[i] = static_cast<unsigned char>(n >> (8 * i));
}

class EvpCipher final : public Cipher {
 public:
  EvpCipher(EVP_CIPHER_CTX* ctx, bool xts, uint32_t unit) : ctx_(ctx), xts_(xts), unit_(unit) {}
  ~EvpCipher() override { EVP_CIPHER_CTX_free(ctx_); }
  EvpCipher(const EvpCipher&) = delete;
  EvpCipher& operator=(const EvpCipher&) = delete;

  bool Encrypt(const unsigned char* in, unsigned char* out, size_t len,
               uint64_t first_unit) override {
    unsigned char iv[16];
    int n = 0;
    if (!xts_) {
      // GCM: a 96-bit nonce that never repeats under this key, then the tag.
      UnitIv(++nonce_, iv);
      unsigned char tag[16];
      return EVP_EncryptInit_ex(ctx_, nullptr, nullptr, nullptr, iv) == 1 &&
             EVP_EncryptUpdate(ctx_, out, &n, in, static_cast<int>(len)) == 1 &&
             EVP_EncryptFinal_ex(ctx_, out + n, &n) == 1 &&
             EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_GCM_GET_TAG, sizeof tag, tag) == 1;
    }
    for (size_t pos = 0; pos < len; pos += unit_) {
      UnitIv(first_unit++, iv);
      if (EVP_EncryptInit_ex(ctx_, nullptr, nullptr, nullptr, iv) != 1 ||
          EVP_EncryptUpdate(ctx_, out + pos, &n, in + pos, static_cast<int>(unit_)) != 1)
        return false;
    }
    return true;
  }

 private:
  EVP_CIPHER_CTX* ctx_;
  bool xts_;
  uint32_t unit_;
  uint64_t nonce_ = 0;
};

// The kernel's xts(aes) through AF_ALG: one request (sendmsg with the IV, then read) per data
// unit, as the kernel encrypts fscrypt's blocks one by one. The driver the kernel picked is in
// /proc/crypto (read on the node side).
class KernelCipher final : public Cipher {
 public:
  KernelCipher(int tfm, int op, uint32_t unit) : tfm_(tfm), op_(op), unit_(unit) {}
  ~KernelCipher() override {
    ::close(op_);
    ::close(tfm_);
  }
  KernelCipher(const KernelCipher&) = delete;
  KernelCipher& operator=(const KernelCipher&) = delete;

  bool Encrypt(const unsigned char* in, unsigned char* out, size_t len,
               uint64_t first_unit) override {
    alignas(16) char control[CMSG_SPACE(sizeof(uint32_t)) + CMSG_SPACE(sizeof(af_alg_iv) + 16)];
    for (size_t pos = 0; pos < len; pos += unit_) {
      std::memset(control, 0, sizeof control);
      msghdr msg{};
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_ALG;
      c->cmsg_type = ALG_SET_OP;
      c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
      const uint32_t op = ALG_OP_ENCRYPT;
      std::memcpy(CMSG_DATA(c), &op, sizeof op);
      c = CMSG_NXTHDR(&msg, c);
      c->cmsg_level = SOL_ALG;
      c->cmsg_type = ALG_SET_IV;
      c->cmsg_len = CMSG_LEN(sizeof(af_alg_iv) + 16);
      auto* iv = reinterpret_cast<af_alg_iv*>(CMSG_DATA(c));
      iv->ivlen = 16;
      UnitIv(first_unit++, iv->iv);
      iovec io{const_cast<unsigned char*>(in + pos), unit_};
      msg.msg_iov = &io;
      msg.msg_iovlen = 1;
      if (::sendmsg(op_, &msg, 0) != static_cast<ssize_t>(unit_)) return false;
      if (::read(op_, out + pos, unit_) != static_cast<ssize_t>(unit_)) return false;
    }
    return true;
  }

 private:
  int tfm_, op_;
  uint32_t unit_;
};

std::unique_ptr<Cipher> MakeKernelCipher(const unsigned char* key, uint32_t unit, Status* err) {
  const int tfm = ::socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (tfm < 0) {
    *err = Status::Errno(errno, "socket", "",
                         "this kernel does not offer its crypto API to programs (AF_ALG)");
    return nullptr;
  }
  sockaddr_alg sa{};
  sa.salg_family = AF_ALG;
  std::strcpy(reinterpret_cast<char*>(sa.salg_type), "skcipher");
  std::strcpy(reinterpret_cast<char*>(sa.salg_name), "xts(aes)");
  int op = -1;
  const char* step = "bind";
  if (::bind(tfm, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0) {
    step = "setsockopt";
    if (::setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, kCipherKeyBytes) == 0) {
      step = "accept";
      op = ::accept4(tfm, nullptr, nullptr, SOCK_CLOEXEC);
    }
  }
  if (op < 0) {
    const int e = errno;
    ::close(tfm);
    *err = Status::Errno(e, step, "", "the kernel refused xts(aes) through AF_ALG");
    return nullptr;
  }
  return std::make_unique<KernelCipher>(tfm, op, unit);
}

}  // namespace

std::unique_ptr<Cipher> MakeCipher(CipherAlgo algo, const unsigned char* key, uint32_t data_unit,
                                   Status* err) {
  if (algo == CipherAlgo::kKernelXts) return MakeKernelCipher(key, data_unit, err);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  if (!ctx) {
    *err = Status::Errno(ENOMEM, "EVP_CIPHER_CTX_new", "", "OpenSSL could not allocate a cipher");
    return nullptr;
  }
  const bool xts = algo == CipherAlgo::kAes256Xts;
  const EVP_CIPHER* c = xts ? EVP_aes_256_xts() : EVP_aes_256_gcm();
  if (EVP_EncryptInit_ex(ctx, c, nullptr, key, nullptr) != 1) {
    EVP_CIPHER_CTX_free(ctx);
    *err = Status::Errno(ENOTSUP, "EVP_EncryptInit_ex", "",
                         std::string("OpenSSL refused ") + CipherAlgoName(algo));
    return nullptr;
  }
  return std::make_unique<EvpCipher>(ctx, xts, data_unit);
}

std::string CipherProvider(CipherAlgo algo) {
  if (algo == CipherAlgo::kKernelXts) return "Linux kernel crypto API (AF_ALG)";
  return CryptoProvider();
}

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
