// Windows: SHA-2 from CNG (bcrypt.dll), the system's own crypto, which uses the CPU's SHA
// instructions where it has them. Its lengths are ULONG (32-bit), so large updates are fed in
// pieces; NTSTATUS failures become EIO with the function's name.
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

}  // namespace

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
