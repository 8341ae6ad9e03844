// The small-file test: the per-operation figures on hand-made samples, and RunTest's small-files
// mode on real files in a temporary folder (every operation counted once a file, the payload
// rates consistent with the times, nothing left behind: done, cancelled, or failed).
#include "engine/small_files.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/engine.h"

namespace dd {
namespace {

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/dd-small-XXXXXX";
    path_ = ::mkdtemp(tmpl);
  }
  ~TempDir() { std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }
  int Entries() const {
    int n = 0;
    DIR* d = ::opendir(path_.c_str());
    while (dirent* e = ::readdir(d))
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") ++n;
    ::closedir(d);
    return n;
  }

 private:
  std::string path_;
};

Spec SmallSpec(const std::string& dir, uint64_t files, uint64_t bytes) {
  Spec s;
  s.path = dir + "/small.dat";
  s.rw = Rw::kWrite;
  s.small_files.files = files;
  s.small_files.file_bytes = bytes;
  return s;
}

TEST(SmallFilesOp, NearestRankPercentilesAndTotalsInMs) {
  // 100 samples of 1..100 ms: p50 is the 50th, p99 the 99th.
  std::vector<uint64_t> ns;
  for (uint64_t i = 100; i >= 1; --i) ns.push_back(i * 1000000);
  const SmallFilesOp op = SummarizeOp("write", &ns);
  EXPECT_EQ(op.name, "write");
  EXPECT_EQ(op.count, 100u);
  EXPECT_DOUBLE_EQ(op.p50_ms, 50);
  EXPECT_DOUBLE_EQ(op.p99_ms, 99);
  EXPECT_DOUBLE_EQ(op.max_ms, 100);
  EXPECT_DOUBLE_EQ(op.total_ms, 5050);
  EXPECT_DOUBLE_EQ(op.mean_ms, 50.5);
  std::vector<uint64_t> none;
  EXPECT_EQ(SummarizeOp("stat", &none).count, 0u);
}

TEST(SmallFiles, TimesEveryOperationOfEveryFileAndLeavesNothing) {
  TempDir dir;
  std::atomic<bool> cancel{false};
  Result r;
  ASSERT_TRUE(RunTest(SmallSpec(dir.path(), 50, 4096), nullptr, cancel, &r).ok());
  const SmallFilesResult& f = r.small_files;
  EXPECT_EQ(f.files, 50u);
  EXPECT_EQ(f.file_bytes, 4096u);
  const char* names[] = {"create", "write", "fsync", "close", "stat", "open", "read", "delete"};
  ASSERT_EQ(f.ops.size(), 8u);
  double sum = 0;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(f.ops[i].name, names[i]);
    EXPECT_EQ(f.ops[i].count, 50u) << names[i];
    EXPECT_GT(f.ops[i].total_ms, 0) << names[i];
    EXPECT_LE(f.ops[i].p50_ms, f.ops[i].p99_ms);
    EXPECT_LE(f.ops[i].p99_ms, f.ops[i].max_ms);
    sum += f.ops[i].total_ms;
  }
  EXPECT_NEAR(f.seconds, sum / 1e3, 1e-9);
  EXPECT_NEAR(f.ms_per_file, sum / 50, 1e-9);
  EXPECT_NEAR(f.files_per_s, 50 / f.seconds, 1e-6);
  // Payload rates: bytes over the write-side (create..close) and read-side (open, read) times.
  const double write_ms =
      f.ops[0].total_ms + f.ops[1].total_ms + f.ops[2].total_ms + f.ops[3].total_ms;
  EXPECT_NEAR(f.write_mbps, 50 * 4096 / (write_ms / 1e3) / 1e6, 1e-6);
  EXPECT_EQ(r.bytes_written, 50u * 4096);
  EXPECT_EQ(r.bytes_read, 50u * 4096);
  EXPECT_EQ(r.cache_mode, CacheMode::kDirect);  // /tmp here is ext4: 4 KiB files go direct
  EXPECT_EQ(dir.Entries(), 0);
}

TEST(SmallFiles, AFileSizeBelowTheAlignmentIsWrittenAndReadWhole) {
  TempDir dir;
  std::atomic<bool> cancel{false};
  Result r;
  // 1000 B: direct I/O moves a 4 KiB block, the file is cut back to 1000 B (stat checks it).
  ASSERT_TRUE(RunTest(SmallSpec(dir.path(), 5, 1000), nullptr, cancel, &r).ok());
  EXPECT_EQ(r.small_files.files, 5u);
  EXPECT_EQ(r.bytes_read, 5000u);
  EXPECT_EQ(dir.Entries(), 0);
}

class CancelAfter : public ProgressSink {
 public:
  explicit CancelAfter(std::atomic<bool>* c) : c_(c) {}
  void OnProgress(const Progress&) override { *c_ = true; }

 private:
  std::atomic<bool>* c_;
};

TEST(SmallFiles, ACancelStopsAtTheNextOperationAndRemovesEveryFile) {
  TempDir dir;
  std::atomic<bool> cancel{false};
  CancelAfter sink(&cancel);
  Spec s = SmallSpec(dir.path(), 100000, 4096);
  s.progress_interval_ms = 20;
  Result r;
  ASSERT_TRUE(RunTest(s, &sink, cancel, &r).ok());
  EXPECT_TRUE(r.cancelled);
  EXPECT_LT(r.small_files.files, 100000u);
  EXPECT_EQ(dir.Entries(), 0);
}

TEST(SmallFiles, AFailureRemovesTheFilesMadeSoFar) {
  TempDir dir;
  std::atomic<bool> cancel{false};
  Spec s = SmallSpec(dir.path(), 20, 4096);
  // A folder where file 3 goes: its create fails; files 0-2 must not stay behind.
  ASSERT_EQ(::mkdir((s.path + ".000003").c_str(), 0700), 0);
  Result r;
  Status st = RunTest(s, nullptr, cancel, &r);
  EXPECT_FALSE(st.ok());
  ::rmdir((s.path + ".000003").c_str());
  EXPECT_EQ(dir.Entries(), 0);
}

TEST(SmallFiles, RefusesOutOfRangeWithPlainWords) {
  Spec s = SmallSpec("/tmp", 5, 0);
  EXPECT_NE(Normalize(&s).detail.find("file size"), std::string::npos);
  s = SmallSpec("/tmp", kMaxSmallFiles + 1, 4096);
  EXPECT_NE(Normalize(&s).detail.find("file count"), std::string::npos);
}

}  // namespace
}  // namespace dd
