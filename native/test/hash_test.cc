// The Hash test's engine: the platform's SHA-2 against the FIPS 180 vectors, and RunHash's three
// modes on real files in a temporary folder (read-hash equals a one-shot hash at every awkward
// size; the file is never modified; cancel, folders and missing files).
#include "engine/hash.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "engine/prng.h"
#include "platform/crypto.h"
#include "platform/platform.h"

namespace dd {
namespace {

std::string OneShot(HashAlgo algo, const void* data, size_t len) {
  Status st;
  auto h = platform::MakeHasher(algo, &st);
  EXPECT_TRUE(h) << st.message();
  if (!h) return {};
  EXPECT_TRUE(h->Update(data, len));
  return h->FinalHex();
}

std::string OneShot(HashAlgo algo, const std::string& s) {
  return OneShot(algo, s.data(), s.size());
}

const char kAbc448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

// FIPS 180-2, appendix B (SHA-256) and C (SHA-512); the empty message from NIST's examples.
TEST(Crypto, Sha256MatchesFips180Vectors) {
  EXPECT_EQ(OneShot(HashAlgo::kSha256, ""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(OneShot(HashAlgo::kSha256, "abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(OneShot(HashAlgo::kSha256, kAbc448),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Crypto, Sha512MatchesFips180Vectors) {
  EXPECT_EQ(OneShot(HashAlgo::kSha512, ""),
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
            "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e");
  EXPECT_EQ(OneShot(HashAlgo::kSha512, "abc"),
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
  EXPECT_EQ(OneShot(HashAlgo::kSha512, kAbc448),
            "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
            "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445");
}

// One million 'a', fed in uneven pieces (1, 2, 3, ... 1000 bytes, then whatever is left): block
// boundaries fall inside updates, across them and exactly on them.
TEST(Crypto, MillionAInUnevenPieces) {
  const std::string a(1000000, 'a');
  const struct {
    HashAlgo algo;
    const char* want;
  } cases[] = {
      {HashAlgo::kSha256, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
      {HashAlgo::kSha512,
       "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
       "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"},
  };
  for (const auto& c : cases) {
    Status st;
    auto h = platform::MakeHasher(c.algo, &st);
    ASSERT_TRUE(h) << st.message();
    size_t pos = 0, piece = 1;
    while (pos < a.size()) {
      const size_t n = std::min(piece, a.size() - pos);
      ASSERT_TRUE(h->Update(a.data() + pos, n));
      pos += n;
      piece = piece % 1000 + 1;
    }
    EXPECT_EQ(h->FinalHex(), c.want) << HashAlgoName(c.algo);
    EXPECT_EQ(OneShot(c.algo, a), c.want) << HashAlgoName(c.algo);
  }
}

TEST(Crypto, NamesItsProvider) {
  EXPECT_NE(platform::CryptoProvider().find("OpenSSL"), std::string::npos)
      << platform::CryptoProvider();
}

class HashFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/dd-hash-test-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const auto& f : files_) ::unlink(f.c_str());
    ::rmdir(dir_.c_str());
  }

  // A file of `size` incompressible bytes; returns its path and (in *data) its content.
  std::string MakeFile(const std::string& name, size_t size, std::vector<unsigned char>* data) {
    std::vector<unsigned char> bytes(size);
    Prng(size + 1).Fill(bytes.data(), bytes.size());
    const std::string path = dir_ + "/" + name;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    EXPECT_GE(fd, 0);
    size_t off = 0;
    while (off < size) {
      const ssize_t n = ::write(fd, bytes.data() + off, size - off);
      EXPECT_GT(n, 0);
      if (n <= 0) break;
      off += static_cast<size_t>(n);
    }
    ::close(fd);
    files_.push_back(path);
    if (data) *data = std::move(bytes);
    return path;
  }

  std::string dir_;
  std::vector<std::string> files_;
};

HashSpec ReadHash(const std::string& path, HashAlgo algo = HashAlgo::kSha256) {
  HashSpec s;
  s.mode = HashMode::kReadHash;
  s.algo = algo;
  s.path = path;
  return s;
}

TEST_F(HashFiles, ReadHashEqualsOneShotAtAwkwardSizes) {
  const std::atomic<bool> cancel{false};
  for (size_t size : {size_t{0}, size_t{1}, size_t{4095}, size_t{4096}, size_t{(1 << 20) + 1}}) {
    std::vector<unsigned char> data;
    const std::string path = MakeFile("f" + std::to_string(size), size, &data);
    for (HashAlgo algo : {HashAlgo::kSha256, HashAlgo::kSha512}) {
      const std::string want = OneShot(algo, data.data(), data.size());
      // Default chunks, and small ones through a two-chunk ring (many hand-offs).
      for (uint64_t chunk : {uint64_t{1} << 20, uint64_t{4096}}) {
        HashSpec spec = ReadHash(path, algo);
        spec.chunk_bytes = chunk;
        spec.buffers = chunk == 4096 ? 2 : 4;
        HashResult r;
        const Status st = RunHash(spec, nullptr, cancel, &r);
        ASSERT_TRUE(st.ok()) << st.message();
        EXPECT_EQ(r.digest, want) << size << " B, " << HashAlgoName(algo) << ", chunk " << chunk;
        EXPECT_EQ(r.bytes, size);
        EXPECT_EQ(r.cache_mode, CacheMode::kDirect) << r.cache_note;  // /tmp is ext4 here
        EXPECT_EQ(r.chunk_bytes % r.alignment, 0u);
        EXPECT_GE(r.reader_wait_seconds, 0);
        EXPECT_GE(r.hasher_wait_seconds, 0);
        EXPECT_FALSE(r.cancelled);
      }
    }
  }
}

TEST_F(HashFiles, ReadModeReadsTheWholeFile) {
  const std::atomic<bool> cancel{false};
  for (size_t size : {size_t{0}, size_t{4095}, size_t{(3 << 20) + 17}}) {
    const std::string path = MakeFile("r" + std::to_string(size), size, nullptr);
    HashSpec spec = ReadHash(path);
    spec.mode = HashMode::kRead;
    HashResult r;
    const Status st = RunHash(spec, nullptr, cancel, &r);
    ASSERT_TRUE(st.ok()) << st.message();
    EXPECT_EQ(r.bytes, size);
    EXPECT_TRUE(r.digest.empty());
    EXPECT_GT(r.seconds, 0);
    EXPECT_DOUBLE_EQ(r.mbps, r.bytes / r.seconds / 1e6);
  }
}

TEST_F(HashFiles, NeverModifiesTheFile) {
  std::vector<unsigned char> data;
  const std::string path = MakeFile("keep", (2 << 20) + 123, &data);
  // An mtime in the past, so any write would visibly move it.
  const struct timespec past[2] = {{1000000000, 0}, {1000000000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, path.c_str(), past, 0), 0);
  struct stat before, after;
  ASSERT_EQ(::stat(path.c_str(), &before), 0);

  const std::atomic<bool> cancel{false};
  for (HashMode mode : {HashMode::kRead, HashMode::kReadHash}) {
    HashSpec spec = ReadHash(path);
    spec.mode = mode;
    HashResult r;
    ASSERT_TRUE(RunHash(spec, nullptr, cancel, &r).ok());
  }
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
  EXPECT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
  EXPECT_EQ(after.st_size, before.st_size);
  std::vector<unsigned char> now(data.size());
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::read(fd, now.data(), now.size()), static_cast<ssize_t>(now.size()));
  ::close(fd);
  EXPECT_EQ(std::memcmp(now.data(), data.data(), data.size()), 0);
}

TEST_F(HashFiles, BufferedWhenAskedAndOnTmpfsWithTheReasonGiven) {
  std::vector<unsigned char> data;
  const std::string path = MakeFile("b", 300000, &data);
  const std::atomic<bool> cancel{false};
  HashSpec spec = ReadHash(path);
  spec.cache = HashCache::kBuffered;
  HashResult r;
  ASSERT_TRUE(RunHash(spec, nullptr, cancel, &r).ok());
  EXPECT_EQ(r.cache_mode, CacheMode::kBuffered);
  EXPECT_EQ(r.cache_note, "buffered I/O was requested");
  EXPECT_EQ(r.digest, OneShot(HashAlgo::kSha256, data.data(), data.size()));

  // tmpfs keeps its data in the page cache: the engine says so, and still hashes correctly.
  char tmpl[] = "/dev/shm/dd-hash-test-XXXXXX";
  const int fd = ::mkstemp(tmpl);
  if (fd < 0) GTEST_SKIP() << "no /dev/shm";
  ASSERT_EQ(::write(fd, data.data(), data.size()), static_cast<ssize_t>(data.size()));
  ::close(fd);
  HashResult t;
  const Status st = RunHash(ReadHash(tmpl), nullptr, cancel, &t);
  ::unlink(tmpl);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(t.cache_mode, CacheMode::kBufferedFlushed);
  EXPECT_NE(t.cache_note.find("tmpfs"), std::string::npos) << t.cache_note;
  EXPECT_EQ(t.digest, r.digest);
}

TEST(HashMemory, TwoStreamsHashForTheTimeAsked) {
  const std::atomic<bool> cancel{false};
  HashSpec spec;
  spec.mode = HashMode::kMemory;
  spec.threads = 2;
  spec.seconds = 0.3;
  HashResult r;
  const Status st = RunHash(spec, nullptr, cancel, &r);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_GT(r.bytes, 0u);
  EXPECT_GE(r.seconds, 0.3);
  EXPECT_LT(r.seconds, 0.6);
  EXPECT_DOUBLE_EQ(r.mbps, r.bytes / r.seconds / 1e6);
  EXPECT_TRUE(r.digest.empty());
  EXPECT_FALSE(r.provider.empty());
}

TEST(HashMemory, TinyBuffersAndManyStreams) {
  const std::atomic<bool> cancel{false};
  HashSpec spec;
  spec.mode = HashMode::kMemory;
  spec.algo = HashAlgo::kSha512;
  spec.threads = 8;
  spec.memory_bytes = 100;
  spec.seconds = 0.1;
  HashResult r;
  ASSERT_TRUE(RunHash(spec, nullptr, cancel, &r).ok());
  EXPECT_GT(r.bytes, 0u);
  EXPECT_EQ(r.bytes % 100, 0u);
}

// Progress comes from the calling thread only, a few times a second, with monotonic figures.
class Recorder final : public HashProgressSink {
 public:
  void OnProgress(const HashProgress& p) override {
    seen.push_back(p);
    if (std::this_thread::get_id() != caller) wrong_thread = true;
  }
  std::vector<HashProgress> seen;
  std::thread::id caller = std::this_thread::get_id();
  bool wrong_thread = false;
};

TEST(HashMemory, ReportsProgressFromTheCallingThread) {
  const std::atomic<bool> cancel{false};
  HashSpec spec;
  spec.mode = HashMode::kMemory;
  spec.seconds = 0.3;
  spec.progress_interval_ms = 20;
  Recorder rec;
  HashResult r;
  ASSERT_TRUE(RunHash(spec, &rec, cancel, &r).ok());
  EXPECT_FALSE(rec.wrong_thread);
  ASSERT_GE(rec.seen.size(), 5u);
  for (size_t i = 1; i < rec.seen.size(); ++i) {
    EXPECT_GE(rec.seen[i].bytes_done, rec.seen[i - 1].bytes_done);
    EXPECT_GE(rec.seen[i].elapsed, rec.seen[i - 1].elapsed);
  }
  EXPECT_EQ(rec.seen.back().bytes_done, r.bytes);
  EXPECT_EQ(rec.seen.back().bytes_total, 0u);
  EXPECT_DOUBLE_EQ(rec.seen.back().seconds_total, 0.3);
}

// Runs `spec`, setting cancel after `after`; returns how long RunHash took to return after that.
double CancelLatency(const HashSpec& spec, std::chrono::milliseconds after, HashResult* r,
                     Status* st) {
  std::atomic<bool> cancel{false};
  std::chrono::steady_clock::time_point cancelled_at;
  std::thread t([&] {
    std::this_thread::sleep_for(after);
    cancelled_at = std::chrono::steady_clock::now();
    cancel = true;
  });
  *st = RunHash(spec, nullptr, cancel, r);
  const auto returned = std::chrono::steady_clock::now();
  t.join();
  return std::chrono::duration<double>(returned - cancelled_at).count();
}

TEST(HashCancel, MemoryStopsPromptly) {
  HashSpec spec;
  spec.mode = HashMode::kMemory;
  spec.threads = 2;
  spec.seconds = 30;
  HashResult r;
  Status st;
  const double latency = CancelLatency(spec, std::chrono::milliseconds(150), &r, &st);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(r.cancelled);
  EXPECT_GT(r.bytes, 0u);
  EXPECT_LT(latency, 0.25);
  EXPECT_LT(r.seconds, 1.0);
}

TEST_F(HashFiles, ReadHashStopsPromptlyMidFile) {
  // A 2 GiB sparse file: far longer to hash than the test waits.
  const std::string path = dir_ + "/sparse";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, 2LL << 30), 0);
  ::close(fd);
  files_.push_back(path);
  HashSpec spec = ReadHash(path, HashAlgo::kSha512);
  HashResult r;
  Status st;
  const double latency = CancelLatency(spec, std::chrono::milliseconds(150), &r, &st);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_TRUE(r.cancelled);
  EXPECT_TRUE(r.digest.empty()) << "no digest of part of a file";
  EXPECT_GT(r.bytes, 0u);
  EXPECT_LT(r.bytes, 2ULL << 30);
  EXPECT_LT(latency, 0.25);
}

TEST_F(HashFiles, AFolderIsRefusedInPlainWords) {
  const std::atomic<bool> cancel{false};
  for (HashMode mode : {HashMode::kRead, HashMode::kReadHash}) {
    HashSpec spec = ReadHash(dir_);
    spec.mode = mode;
    HashResult r;
    const Status st = RunHash(spec, nullptr, cancel, &r);
    EXPECT_EQ(st.code, "EISDIR");
    EXPECT_EQ(st.path, dir_);
    EXPECT_EQ(st.message(), "EISDIR: " + dir_ + " is a folder, not a file");
  }
}

TEST_F(HashFiles, AMissingFileIsENOENT) {
  const std::atomic<bool> cancel{false};
  const std::string path = dir_ + "/no-such-file";
  HashResult r;
  const Status st = RunHash(ReadHash(path), nullptr, cancel, &r);
  EXPECT_EQ(st.code, "ENOENT");
  EXPECT_EQ(st.syscall, "open");
  EXPECT_EQ(st.message(), "ENOENT: no such file or directory, open '" + path + "'");
  EXPECT_NE(::access(path.c_str(), F_OK), 0) << "a read-only open must never create the file";
}

// A file swapped for a FIFO after a folder was listed: open(2) of a FIFO with no writer waits
// forever (and a cancel never reaches it), so the engine must refuse it without blocking.
TEST_F(HashFiles, AFifoIsRefusedAtOnceNotWaitedOn) {
  const std::string path = dir_ + "/swapped";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  files_.push_back(path);
  const std::atomic<bool> cancel{false};
  // Run on a thread of its own: on the old engine this open never returns, and the test must
  // fail on that rather than hang (the thread is then left blocked and the process exits).
  auto* out = new std::atomic<int>(0);
  auto* st = new Status();
  std::thread([path, &cancel, out, st] {
    HashResult r;
    *st = RunHash(ReadHash(path), nullptr, cancel, &r);
    out->store(1);
  }).detach();
  const auto t0 = std::chrono::steady_clock::now();
  while (out->load() == 0 && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(out->load(), 1) << "RunHash blocked opening a FIFO";
  EXPECT_EQ(st->code, "EINVAL");
  EXPECT_EQ(st->message(),
            "EINVAL: " + path + " is not a regular file (a FIFO (named pipe)): not read");
  delete st;
  delete out;
}

TEST_F(HashFiles, ASocketOrDeviceIsRefusedInPlainWords) {
  const std::atomic<bool> cancel{false};
  HashResult r;
  const Status st = RunHash(ReadHash("/dev/null"), nullptr, cancel, &r);
  EXPECT_EQ(st.code, "EINVAL");
  EXPECT_EQ(st.message(), "EINVAL: /dev/null is not a regular file (a character device): not read");
}

TEST_F(HashFiles, ALinkIsFollowedUnlessTheSpecSaysNot) {
  std::vector<unsigned char> data;
  const std::string file = MakeFile("real", 5000, &data);
  const std::string link = dir_ + "/link";
  ASSERT_EQ(::symlink(file.c_str(), link.c_str()), 0);
  files_.push_back(link);
  const std::atomic<bool> cancel{false};
  HashResult r;
  ASSERT_TRUE(RunHash(ReadHash(link), nullptr, cancel, &r).ok());
  EXPECT_EQ(r.digest, OneShot(HashAlgo::kSha256, data.data(), data.size()));

  HashSpec spec = ReadHash(link);
  spec.follow_links = false;
  const Status st = RunHash(spec, nullptr, cancel, &r);
  EXPECT_EQ(st.code, "ELOOP");
  EXPECT_EQ(st.message(),
            "ELOOP: " + link + " is a symbolic link, not a file: not followed, not read");
}

// The platform layer's open itself, for every caller (the test files, the many-file test):
// a FIFO in a test file's place is refused, and the file opened for I/O blocks normally again.
TEST(PlatformOpen, RefusesAFifoAndClearsNonBlockingOnAFile) {
  char tmpl[] = "/tmp/dd-open-test-XXXXXX";
  ASSERT_NE(::mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl, fifo = dir + "/fifo", file = dir + "/file";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  platform::OpenOptions oo;
  oo.write = true;
  oo.create = true;
  oo.uncached = false;
  platform::OpenedFile f;
  // O_RDWR on a FIFO never blocks even without O_NONBLOCK; the type check is what refuses it.
  const Status st = platform::OpenFile(fifo, oo, &f);
  EXPECT_EQ(st.code, "EINVAL") << st.message();
  ASSERT_TRUE(platform::OpenFile(file, oo, &f).ok());
  EXPECT_EQ(::fcntl(static_cast<int>(f.handle), F_GETFL) & O_NONBLOCK, 0);
  platform::CloseFile(f.handle);
  ::unlink(fifo.c_str());
  ::unlink(file.c_str());
  ::rmdir(dir.c_str());
}

TEST(HashSpecCheck, RefusesOutOfRangeValuesInPlainWords) {
  const std::atomic<bool> cancel{false};
  HashResult r;
  HashSpec s = ReadHash("/tmp/x");
  s.buffers = 1;
  EXPECT_EQ(RunHash(s, nullptr, cancel, &r).message(),
            "EINVAL: buffer count 1 is out of range 2-64");
  s = ReadHash("/tmp/x");
  s.chunk_bytes = 128ULL << 20;
  EXPECT_EQ(RunHash(s, nullptr, cancel, &r).code, "EINVAL");
  s = ReadHash("");
  EXPECT_EQ(RunHash(s, nullptr, cancel, &r).message(), "EINVAL: the file path is empty");
  s = HashSpec();
  s.mode = HashMode::kMemory;
  s.threads = 257;
  EXPECT_EQ(RunHash(s, nullptr, cancel, &r).message(),
            "EINVAL: thread count 257 is out of range 1-256");
  s.threads = 256;
  s.memory_bytes = 4 << 20;
  EXPECT_EQ(RunHash(s, nullptr, cancel, &r).code, "EINVAL");  // 1 GiB in all
  s = HashSpec();
  s.mode = HashMode::kMemory;
  s.seconds = 0;
  EXPECT_EQ(RunHash(s, nullptr, cancel, &r).code, "EINVAL");
}

}  // namespace
}  // namespace dd
