// Windows: SHA-2 and AES from CNG (bcrypt.dll), the system's own crypto (BitLocker's), which
// uses the CPU's SHA and AES instructions where it has them. XTS-AES needs Windows 10 1709 or
// later; older systems say it is unsupported. Its lengths are ULONG (32-bit), so large updates
// are fed in pieces; NTSTATUS failures become EIO with the function's name.
#include <windows.h>
#include <bcrypt.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <vector>

#include "platform/crypto.h"

namespace dd::platform {

namespace {

constexpr size_t kMaxPiece = 1u << 30;  // well inside ULONG

std::string NtStatusText(NTSTATUS st) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "NTSTATUS 0x%08lx", static_cast<unsigned long>(st));
  return buf;
}

class CngHasher final : public Hasher {
 public:
  ~CngHasher() override {
    if (hash_) ::BCryptDestroyHash(hash_);
    if (alg_) ::BCryptCloseAlgorithmProvider(alg_, 0);
  }

  Status Open(HashAlgo algo) {
    NTSTATUS st = ::BCryptOpenAlgorithmProvider(
        &alg_, algo == HashAlgo::kSha512 ? BCRYPT_SHA512_ALGORITHM : BCRYPT_SHA256_ALGORITHM,
        nullptr, 0);
    if (!BCRYPT_SUCCESS(st)) {
      alg_ = nullptr;
      return Status::Errno(ENOTSUP, "BCryptOpenAlgorithmProvider", "", NtStatusText(st));
    }
    DWORD len = 0;
    ULONG got = 0;
    st = ::BCryptGetProperty(alg_, BCRYPT_HASH_LENGTH, reinterpret_cast<PUCHAR>(&len), sizeof len,
                             &got, 0);
    if (!BCRYPT_SUCCESS(st)) return Status::Errno(EIO, "BCryptGetProperty", "", NtStatusText(st));
    digest_len_ = len;
    // A null object buffer: CNG allocates and frees the hash object itself (Windows 7+).
    st = ::BCryptCreateHash(alg_, &hash_, nullptr, 0, nullptr, 0, 0);
    if (!BCRYPT_SUCCESS(st)) {
      hash_ = nullptr;
      return Status::Errno(EIO, "BCryptCreateHash", "", NtStatusText(st));
    }
    return Status::Ok();
  }

  bool Update(const void* data, size_t len) override {
    auto* p = static_cast<PUCHAR>(const_cast<void*>(data));  // CNG does not write to it
    while (len > 0) {
      const size_t n = std::min(len, kMaxPiece);
      if (!BCRYPT_SUCCESS(::BCryptHashData(hash_, p, static_cast<ULONG>(n), 0))) return false;
      p += n;
      len -= n;
    }
    return true;
  }

  std::string FinalHex() override {
    std::vector<unsigned char> md(digest_len_);
    if (!BCRYPT_SUCCESS(::BCryptFinishHash(hash_, md.data(), static_cast<ULONG>(md.size()), 0)))
      return {};
    return ToHex(md.data(), md.size());
  }

 private:
  BCRYPT_ALG_HANDLE alg_ = nullptr;
  BCRYPT_HASH_HANDLE hash_ = nullptr;
  DWORD digest_len_ = 0;
};

#ifndef BCRYPT_XTS_AES_ALGORITHM
#define BCRYPT_XTS_AES_ALGORITHM L"XTS-AES"
#endif

// One CNG key. XTS: the message block length is the data unit, and one BCryptEncrypt call takes
// the whole block, CNG numbering its units from the 8-byte IV (the first unit's number). GCM: one
// message per call with a fresh 12-byte nonce and a 16-byte tag.
class CngCipher final : public Cipher {
 public:
  ~CngCipher() override {
    if (key_) ::BCryptDestroyKey(key_);
    if (alg_) ::BCryptCloseAlgorithmProvider(alg_, 0);
  }

  Status Open(CipherAlgo algo, const unsigned char* key, uint32_t unit) {
    xts_ = algo == CipherAlgo::kAes256Xts;
    NTSTATUS st = ::BCryptOpenAlgorithmProvider(
        &alg_, xts_ ? BCRYPT_XTS_AES_ALGORITHM : BCRYPT_AES_ALGORITHM, nullptr, 0);
    if (!BCRYPT_SUCCESS(st)) {
      alg_ = nullptr;
      return Status::Errno(ENOTSUP, "BCryptOpenAlgorithmProvider", "",
                           xts_ ? "this Windows has no XTS-AES in CNG (it needs Windows 10 1709 "
                                  "or later)"
                                : NtStatusText(st));
    }
    if (!xts_) {
      st =
          ::BCryptSetProperty(alg_, BCRYPT_CHAINING_MODE,
                              reinterpret_cast<PUCHAR>(const_cast<wchar_t*>(BCRYPT_CHAIN_MODE_GCM)),
                              sizeof(BCRYPT_CHAIN_MODE_GCM), 0);
      if (!BCRYPT_SUCCESS(st))
        return Status::Errno(ENOTSUP, "BCryptSetProperty", "", NtStatusText(st));
    }
    st = ::BCryptGenerateSymmetricKey(alg_, &key_, nullptr, 0, const_cast<PUCHAR>(key),
                                      xts_ ? 64 : 32, 0);
    if (!BCRYPT_SUCCESS(st)) {
      key_ = nullptr;
      return Status::Errno(EIO, "BCryptGenerateSymmetricKey", "", NtStatusText(st));
    }
    if (xts_) {
      DWORD len = unit;
      st = ::BCryptSetProperty(key_, BCRYPT_MESSAGE_BLOCK_LENGTH, reinterpret_cast<PUCHAR>(&len),
                               sizeof len, 0);
      if (!BCRYPT_SUCCESS(st)) return Status::Errno(EIO, "BCryptSetProperty", "", NtStatusText(st));
    }
    return Status::Ok();
  }

  bool Encrypt(const unsigned char* in, unsigned char* out, size_t len,
               uint64_t first_unit) override {
    ULONG got = 0;
    if (xts_) {
      unsigned char iv[8];
      for (int i = 0; i < 8; ++i) iv[i] = static_cast<unsigned char>(first_unit >> (8 * i));
      return BCRYPT_SUCCESS(::BCryptEncrypt(key_, const_cast<PUCHAR>(in), static_cast<ULONG>(len),
                                            nullptr, iv, sizeof iv, out, static_cast<ULONG>(len),
                                            &got, 0));
    }
    unsigned char nonce[12] = {}, tag[16];
    ++nonce_;
    for (int i = 0; i < 8; ++i) nonce[i] = static_cast<unsigned char>(nonce_ >> (8 * i));
    BCRYPT_AUTHENTICATED_CIPHER_MODE_INFO info;
    BCRYPT_INIT_AUTH_MODE_INFO(info);
    info.pbNonce = nonce;
    info.cbNonce = sizeof nonce;
    info.pbTag = tag;
    info.cbTag = sizeof tag;
    return BCRYPT_SUCCESS(::BCryptEncrypt(key_, const_cast<PUCHAR>(in), static_cast<ULONG>(len),
                                          &info, nullptr, 0, out, static_cast<ULONG>(len), &got,
                                          0));
  }

 private:
  BCRYPT_ALG_HANDLE alg_ = nullptr;
  BCRYPT_KEY_HANDLE key_ = nullptr;
  bool xts_ = true;
  uint64_t nonce_ = 0;
};

}  // namespace

std::unique_ptr<Cipher> MakeCipher(CipherAlgo algo, const unsigned char* key, uint32_t data_unit,
                                   Status* err) {
  if (algo == CipherAlgo::kKernelXts) {
    *err = Status::Errno(ENOTSUP, "", "", "the kernel's own cipher is measured on Linux only");
    return nullptr;
  }
  auto c = std::make_unique<CngCipher>();
  if (Status st = c->Open(algo, key, data_unit); !st.ok()) {
    *err = st;
    return nullptr;
  }
  return c;
}

std::string CipherProvider(CipherAlgo) { return CryptoProvider(); }

std::unique_ptr<Hasher> MakeHasher(HashAlgo algo, Status* err) {
  auto h = std::make_unique<CngHasher>();
  if (Status st = h->Open(algo); !st.ok()) {
    *err = st;
    return nullptr;
  }
  return h;
}

std::string CryptoProvider() { return "Windows CNG (BCrypt)"; }

}  // namespace dd::platform
