// The cipher ceiling's engine: the platform's AES-XTS numbers its 4096-byte data units like
// sectors (checked by decrypting each unit with OpenSSL directly), GCM takes a fresh nonce per
// block, the kernel's xts(aes) agrees with OpenSSL where AF_ALG exists (and says so in words
// where it does not), and RunCipher's spec checks, streams and cancel.
#include "engine/cipher.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "engine/prng.h"
#include "platform/crypto.h"

namespace dd {
namespace {

std::vector<unsigned char> Key() {
  std::vector<unsigned char> key(platform::kCipherKeyBytes);
  for (size_t i = 0; i < key.size(); ++i) key[i] = static_cast<unsigned char>(i * 7 + 1);
  return key;
}

std::vector<unsigned char> Data(size_t n) {
  std::vector<unsigned char> d(n);
  Prng(42).Fill(d.data(), n);
  return d;
}

// Decrypts one data unit with OpenSSL's one-shot XTS and the tweak n (little-endian).
std::vector<unsigned char> XtsDecrypt(const unsigned char* in, size_t len, uint64_t n) {
  unsigned char iv[16] = {};
  for (int i = 0; i < 8; ++i) iv[i] = static_cast<unsigned char>(n >> (8 * i));
  std::vector<unsigned char> out(len);
  EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
  int got = 0;
  EXPECT_EQ(EVP_DecryptInit_ex(ctx, EVP_aes_256_xts(), nullptr, Key().data(), iv), 1);
  EXPECT_EQ(EVP_DecryptUpdate(ctx, out.data(), &got, in, static_cast<int>(len)), 1);
  EVP_CIPHER_CTX_free(ctx);
  return out;
}

TEST(Cipher, XtsEncryptsEachDataUnitWithItsSectorNumberAsTweak) {
  Status st;
  auto c = platform::MakeCipher(CipherAlgo::kAes256Xts, Key().data(), 4096, &st);
  ASSERT_TRUE(c) << st.message();
  const auto plain = Data(16384);
  std::vector<unsigned char> enc(plain.size());
  ASSERT_TRUE(c->Encrypt(plain.data(), enc.data(), enc.size(), 1000));
  EXPECT_NE(0, std::memcmp(enc.data(), plain.data(), 4096));
  for (size_t u = 0; u < 4; ++u) {
    const auto back = XtsDecrypt(enc.data() + u * 4096, 4096, 1000 + u);
    EXPECT_EQ(0, std::memcmp(back.data(), plain.data() + u * 4096, 4096)) << "unit " << u;
  }
  // In place gives the same bytes.
  auto inplace = plain;
  ASSERT_TRUE(c->Encrypt(inplace.data(), inplace.data(), inplace.size(), 1000));
  EXPECT_EQ(inplace, enc);
}

TEST(Cipher, GcmTakesAFreshNonceEveryBlock) {
  Status st;
  auto c = platform::MakeCipher(CipherAlgo::kAes256Gcm, Key().data(), 4096, &st);
  ASSERT_TRUE(c) << st.message();
  const auto plain = Data(16384);
  std::vector<unsigned char> a(plain.size()), b(plain.size());
  ASSERT_TRUE(c->Encrypt(plain.data(), a.data(), a.size(), 0));
  ASSERT_TRUE(c->Encrypt(plain.data(), b.data(), b.size(), 0));
  EXPECT_NE(a, plain);
  EXPECT_NE(a, b);  // the same nonce twice would give the same bytes
}

TEST(Cipher, KernelXtsAgreesWithOpenSslOrSaysWhyNot) {
  Status st;
  auto k = platform::MakeCipher(CipherAlgo::kKernelXts, Key().data(), 4096, &st);
  if (!k) {
    // This kernel may lack AF_ALG skcipher (CONFIG_CRYPTO_USER_API_SKCIPHER): a plain sentence.
    EXPECT_NE(st.message().find("AF_ALG"), std::string::npos) << st.message();
    return;
  }
  auto o = platform::MakeCipher(CipherAlgo::kAes256Xts, Key().data(), 4096, &st);
  ASSERT_TRUE(o) << st.message();
  const auto plain = Data(8192);
  std::vector<unsigned char> a(plain.size()), b(plain.size());
  ASSERT_TRUE(k->Encrypt(plain.data(), a.data(), a.size(), 7));
  ASSERT_TRUE(o->Encrypt(plain.data(), b.data(), b.size(), 7));
  EXPECT_EQ(a, b);
}

TEST(Cipher, RunsEveryStreamForTheTimeAsked) {
  CipherSpec spec;
  spec.threads = 2;
  spec.seconds = 0.2;
  std::atomic<bool> cancel{false};
  CipherResult res;
  Status st = RunCipher(spec, nullptr, cancel, &res);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_FALSE(res.cancelled);
  EXPECT_GT(res.bytes, 0u);
  EXPECT_EQ(res.bytes % spec.block_bytes, 0u);
  EXPECT_GE(res.seconds, 0.2);
  EXPECT_LT(res.seconds, 2.0);
  EXPECT_NEAR(res.mbps, res.bytes / res.seconds / 1e6, 1e-6);
  EXPECT_NE(res.provider.find("OpenSSL"), std::string::npos);
}

TEST(Cipher, RefusesBadSpecsInWords) {
  std::atomic<bool> cancel{false};
  CipherResult res;
  CipherSpec spec;
  spec.threads = 0;
  EXPECT_NE(RunCipher(spec, nullptr, cancel, &res).message().find("thread count 0"),
            std::string::npos);
  spec = CipherSpec{};
  spec.block_bytes = 5000;
  EXPECT_NE(RunCipher(spec, nullptr, cancel, &res).message().find("whole number of data units"),
            std::string::npos);
  spec = CipherSpec{};
  spec.data_unit = 100;
  EXPECT_NE(RunCipher(spec, nullptr, cancel, &res).message().find("multiple of 16 B"),
            std::string::npos);
  CipherAlgo a;
  EXPECT_FALSE(ParseCipherAlgo("aes-128-cbc", &a));
  ASSERT_TRUE(ParseCipherAlgo("kernel-xts", &a));
  EXPECT_EQ(a, CipherAlgo::kKernelXts);
}

TEST(Cipher, CancelStopsEveryStream) {
  CipherSpec spec;
  spec.threads = 2;
  spec.seconds = 60;
  std::atomic<bool> cancel{true};
  CipherResult res;
  ASSERT_TRUE(RunCipher(spec, nullptr, cancel, &res).ok());
  EXPECT_TRUE(res.cancelled);
  EXPECT_LT(res.seconds, 1.0);
}

}  // namespace
}  // namespace dd
