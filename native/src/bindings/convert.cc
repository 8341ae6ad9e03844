// JS <-> engine data conversion.
#include "bindings/convert.h"

#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>

#include "engine/engine.h"

namespace dd::bindings {

namespace {

[[noreturn]] void Bad(Napi::Env env, const std::string& field, const std::string& want) {
  throw Napi::TypeError::New(env, "spec." + field + " must be " + want);
}

bool Has(const Napi::Object& o, const char* key) {
  return o.Has(key) && !o.Get(key).IsUndefined() && !o.Get(key).IsNull();
}

double Number(const Napi::Object& o, const char* key, double min, double max) {
  Napi::Value v = o.Get(key);
  if (!v.IsNumber()) Bad(o.Env(), key, "a number");
  double d = v.As<Napi::Number>().DoubleValue();
  if (!std::isfinite(d) || d < min || d > max)
    Bad(o.Env(), key,
        "a number from " + std::to_string(static_cast<long long>(min)) + " to " +
            std::to_string(static_cast<long long>(max)));
  return d;
}

uint64_t Integer(const Napi::Object& o, const char* key, double min, double max) {
  double d = Number(o, key, min, max);
  if (std::floor(d) != d) Bad(o.Env(), key, "a whole number");
  return static_cast<uint64_t>(d);
}

std::string String(const Napi::Object& o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsString()) Bad(o.Env(), key, "a string");
  return v.As<Napi::String>().Utf8Value();
}

// An optional field, left at its default when absent: a double takes any number in range, an
// integer field a whole one.
template <class T>
void Optional(const Napi::Object& o, const char* key, double min, double max, T* out) {
  if (!Has(o, key)) return;
  if constexpr (std::is_floating_point_v<T>)
    *out = Number(o, key, min, max);
  else
    *out = static_cast<T>(Integer(o, key, min, max));
}

// An optional boolean field, left at its default when absent.
void OptionalBool(const Napi::Object& o, const char* key, bool* out) {
  if (!Has(o, key)) return;
  if (!o.Get(key).IsBoolean()) Bad(o.Env(), key, "a boolean");
  *out = o.Get(key).As<Napi::Boolean>().Value();
}

constexpr double kMaxSafe = 9007199254740991.0;  // 2^53 - 1
// The same bounds for the fields every spec shares.
constexpr double kMaxThreads = 1e6, kMaxSeconds = 1e7, kMaxIntervalMs = 3.6e6;

// bytesDone, bytesTotal (when the progress has one), elapsed, secondsTotal, instMBps, avgMBps:
// the figures every progress carries, in that order.
template <class P>
void SetProgressFigures(Napi::Object o, const P& p, std::optional<uint64_t> bytes_total) {
  o.Set("bytesDone", static_cast<double>(p.bytes_done));
  if (bytes_total) o.Set("bytesTotal", static_cast<double>(*bytes_total));
  o.Set("elapsed", p.elapsed);
  o.Set("secondsTotal", p.seconds_total);
  o.Set("instMBps", p.inst_mbps);
  o.Set("avgMBps", p.avg_mbps);
}

// A named figure for SetNumbers: any arithmetic value as a JS number (counts stay < 2^53).
struct Num {
  template <class T>
  Num(const char* k, T v) : key(k), value(static_cast<double>(v)) {}
  const char* key;
  double value;
};

void SetNumbers(Napi::Object o, std::initializer_list<Num> figures) {
  for (const Num& f : figures) o.Set(f.key, f.value);
}

}  // namespace

Spec SpecFromJs(const Napi::Object& o) {
  Napi::Env env = o.Env();
  Spec s;
  s.path = String(o, "path");
  if (!ParseRw(String(o, "rw"), &s.rw))
    Bad(env, "rw", "one of read, write, randread, randwrite, randrw, rw");
  s.bs = Integer(o, "bs", 1, kMaxSafe);
  s.qd = static_cast<uint32_t>(Integer(o, "qd", 1, 1e6));
  s.threads = static_cast<uint32_t>(Integer(o, "threads", 1, kMaxThreads));
  OptionalBool(o, "device", &s.device);
  if (s.device)  // 0 or absent: the whole device (from offset on)
    Optional(o, "fileSize", 0, kMaxSafe, &s.file_size);
  else
    s.file_size = Integer(o, "fileSize", 1, kMaxSafe);
  Optional(o, "offset", 0, kMaxSafe, &s.offset);  // a device's only: Normalize says so
  Optional(o, "bytes", 0, kMaxSafe, &s.bytes);
  Optional(o, "seconds", 0, kMaxSeconds, &s.seconds);
  Optional(o, "warmupSeconds", 0, kMaxSeconds, &s.warmup_seconds);
  if (!ParsePattern(String(o, "pattern"), &s.pattern))
    Bad(env, "pattern", "random, zeros or verify");
  Optional(o, "rwmixread", 0, 100, &s.rwmixread);
  if (!ParseCacheRequest(String(o, "cache"), &s.cache))
    Bad(env, "cache", "auto, buffered-flushed or buffered");
  OptionalBool(o, "keepFile", &s.keep_file);
  Optional(o, "seed", 0, kMaxSafe, &s.seed);
  Optional(o, "progressIntervalMs", 1, kMaxIntervalMs, &s.progress_interval_ms);
  Optional(o, "seriesIntervalMs", 1, kMaxIntervalMs, &s.series_interval_ms);
  if (Has(o, "paced")) {
    if (!o.Get("paced").IsObject()) Bad(env, "paced", "an object");
    Napi::Object p = o.Get("paced").As<Napi::Object>();
    s.paced.fps = Number(p, "fps", 0, 1000);
    s.paced.frame_bytes = Integer(p, "frameBytes", 1, kMaxSafe);
    s.paced.frames = Integer(p, "frames", 1, kMaxSafe);
    const std::string layout = String(p, "layout");
    if (layout != "stream" && layout != "frames") Bad(env, "paced.layout", "stream or frames");
    s.paced.per_file = layout == "frames";
    Optional(p, "buffer", 1, 1e6, &s.paced.buffer);
  }
  if (Has(o, "smallFiles")) {
    if (!o.Get("smallFiles").IsObject()) Bad(env, "smallFiles", "an object");
    Napi::Object f = o.Get("smallFiles").As<Napi::Object>();
    s.small_files.files = Integer(f, "files", 1, kMaxSafe);
    s.small_files.file_bytes = Integer(f, "fileBytes", 1, kMaxSafe);
  }
  if (Has(o, "verify")) {
    if (!o.Get("verify").IsObject()) Bad(env, "verify", "an object");
    s.verify_base = Integer(o.Get("verify").As<Napi::Object>(), "baseBlock", 0, kMaxSafe);
  }
  return s;
}

Napi::Object SpecToJs(Napi::Env env, const Spec& s) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("path", s.path);
  o.Set("rw", RwName(s.rw));
  o.Set("bs", static_cast<double>(s.bs));
  o.Set("qd", s.qd);
  o.Set("threads", s.threads);
  o.Set("fileSize", static_cast<double>(s.file_size));
  if (s.seconds > 0) o.Set("seconds", s.seconds);
  // An unbounded byte count is an implementation detail of time-bounded tests.
  if (s.bytes < UINT64_MAX / 2) o.Set("bytes", static_cast<double>(s.bytes));
  if (s.warmup_seconds > 0) o.Set("warmupSeconds", s.warmup_seconds);
  o.Set("pattern", PatternName(s.pattern));
  if (IsMixed(s.rw)) o.Set("rwmixread", s.rwmixread);
  o.Set("cache", CacheRequestName(s.cache));
  o.Set("keepFile", s.keep_file);
  o.Set("seed", static_cast<double>(s.seed));  // < 2^53: SpecFromJs and the default ensure it
  o.Set("progressIntervalMs", s.progress_interval_ms);
  o.Set("seriesIntervalMs", s.series_interval_ms);
  if (IsPaced(s)) {
    Napi::Object p = Napi::Object::New(env);
    p.Set("fps", s.paced.fps);
    p.Set("frameBytes", static_cast<double>(s.paced.frame_bytes));
    p.Set("frames", static_cast<double>(s.paced.frames));
    p.Set("layout", s.paced.per_file ? "frames" : "stream");
    p.Set("buffer", s.paced.buffer);
    o.Set("paced", p);
  }
  if (IsSmallFiles(s)) {
    Napi::Object f = Napi::Object::New(env);
    f.Set("files", static_cast<double>(s.small_files.files));
    f.Set("fileBytes", static_cast<double>(s.small_files.file_bytes));
    o.Set("smallFiles", f);
  }
  if (s.pattern == Pattern::kVerify) {
    Napi::Object v = Napi::Object::New(env);
    v.Set("baseBlock", static_cast<double>(s.verify_base));
    o.Set("verify", v);
  }
  if (s.device) o.Set("device", true);
  if (s.offset > 0) o.Set("offset", static_cast<double>(s.offset));
  return o;
}

namespace {
Napi::Object VerifyToJs(Napi::Env env, const VerifyTally& r) {
  Napi::Object o = Napi::Object::New(env);
  SetNumbers(o, {{"blockBytes", kVerifyBlock},
                 {"blocks", r.blocks},
                 {"intact", r.intact},
                 {"aliased", r.aliased},
                 {"zeros", r.zeros},
                 {"ones", r.ones},
                 {"stale", r.stale},
                 {"corrupted", r.corrupted},
                 {"bitErrors", r.bit_errors}});
  Napi::Array runs = Napi::Array::New(env, r.runs.size());
  for (size_t i = 0; i < r.runs.size(); ++i) {
    const VerifyRun& v = r.runs[i];
    Napi::Object one = Napi::Object::New(env);
    one.Set("block", static_cast<double>(v.block));
    one.Set("blocks", static_cast<double>(v.blocks));
    one.Set("kind", VerifyBadName(v.kind));
    if (v.kind == VerifyBad::kAliased) one.Set("held", static_cast<double>(v.held));
    if (v.kind == VerifyBad::kCorrupted) one.Set("bits", static_cast<double>(v.bits));
    runs.Set(i, one);
  }
  o.Set("runs", runs);
  o.Set("runsTruncated", r.truncated);
  return o;
}
}  // namespace

namespace {
Napi::Object SmallFilesToJs(Napi::Env env, const SmallFilesResult& r) {
  Napi::Object o = Napi::Object::New(env);
  SetNumbers(o, {{"files", r.files},
                 {"fileBytes", r.file_bytes},
                 {"seconds", r.seconds},
                 {"filesPerSecond", r.files_per_s},
                 {"msPerFile", r.ms_per_file},
                 {"fileP50Ms", r.file_p50_ms},
                 {"fileP99Ms", r.file_p99_ms},
                 {"writeMBps", r.write_mbps},
                 {"readMBps", r.read_mbps}});
  Napi::Array ops = Napi::Array::New(env, r.ops.size());
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const SmallFilesOp& op = r.ops[i];
    Napi::Object x = Napi::Object::New(env);
    x.Set("op", op.name);
    SetNumbers(x, {{"count", op.count},
                   {"totalMs", op.total_ms},
                   {"meanMs", op.mean_ms},
                   {"p50Ms", op.p50_ms},
                   {"p99Ms", op.p99_ms},
                   {"maxMs", op.max_ms}});
    ops.Set(static_cast<uint32_t>(i), x);
  }
  o.Set("ops", ops);
  return o;
}

Napi::Object PacedToJs(Napi::Env env, const PacedResult& r) {
  Napi::Object o = Napi::Object::New(env);
  SetNumbers(o, {{"frames", r.frames},
                 {"completed", r.completed},
                 {"late", r.late},
                 {"dropped", r.dropped},
                 {"frameBytes", r.frame_bytes},
                 {"budgetMs", r.budget_ms},
                 {"p50Ms", r.p50_ms},
                 {"p99Ms", r.p99_ms},
                 {"p999Ms", r.p999_ms},
                 {"maxMs", r.max_ms},
                 {"jitterMs", r.jitter_ms},
                 {"worstLatenessMs", r.worst_lateness_ms}});
  if (r.first_late_s >= 0) o.Set("firstLateSeconds", r.first_late_s);
  o.Set("timeline", r.timeline);
  o.Set("hostLate", static_cast<double>(r.host_late));
  o.Set("longestPauseMs", r.longest_pause_ms);
  return o;
}
}  // namespace

Napi::Object ResultToJs(Napi::Env env, const Result& r) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("rw", RwName(r.spec.rw));
  o.Set("bs", static_cast<double>(r.spec.bs));
  o.Set("qd", r.spec.qd);
  o.Set("threads", r.spec.threads);
  o.Set("bytes", static_cast<double>(r.bytes));
  o.Set("bytesRead", static_cast<double>(r.bytes_read));
  o.Set("bytesWritten", static_cast<double>(r.bytes_written));
  o.Set("seconds", r.seconds);
  o.Set("mbps", r.mbps);
  o.Set("iops", r.iops);
  o.Set("ios", static_cast<double>(r.ios));
  Napi::Object lat = Napi::Object::New(env);
  SetNumbers(lat, {{"min", r.latency.min},
                   {"mean", r.latency.mean},
                   {"p50", r.latency.p50},
                   {"p90", r.latency.p90},
                   {"p99", r.latency.p99},
                   {"p999", r.latency.p999},
                   {"max", r.latency.max}});
  o.Set("latencyUs", lat);
  // Non-empty buckets as three parallel arrays (compact across the process boundary).
  const size_t nb = r.latency_buckets.size();
  Napi::Object hist = Napi::Object::New(env);
  Napi::Array lower = Napi::Array::New(env, nb), width = Napi::Array::New(env, nb),
              count = Napi::Array::New(env, nb);
  for (size_t i = 0; i < nb; ++i) {
    const auto idx = static_cast<uint32_t>(i);
    lower.Set(idx, static_cast<double>(r.latency_buckets[i].lower_ns));
    width.Set(idx, static_cast<double>(r.latency_buckets[i].width_ns));
    count.Set(idx, static_cast<double>(r.latency_buckets[i].count));
  }
  hist.Set("lowerNs", lower);
  hist.Set("widthNs", width);
  hist.Set("counts", count);
  hist.Set("minNs", static_cast<double>(r.latency_min_ns));
  hist.Set("maxNs", static_cast<double>(r.latency_max_ns));
  o.Set("latencyHistogram", hist);
  Napi::Array series = Napi::Array::New(env, r.series.size());
  for (size_t i = 0; i < r.series.size(); ++i) {
    Napi::Object p = Napi::Object::New(env);
    p.Set("t", r.series[i].t);
    p.Set("mbps", r.series[i].mbps);
    series.Set(static_cast<uint32_t>(i), p);
  }
  o.Set("series", series);
  o.Set("cacheMode", CacheModeName(r.cache_mode));
  if (!r.cache_note.empty()) o.Set("cacheNote", r.cache_note);
  o.Set("ioEngine", r.io_engine);
  o.Set("alignment", r.alignment);
  o.Set("dataPattern", PatternName(r.spec.pattern));
  o.Set("prepareSeconds", r.prepare_seconds);
  o.Set("warmupSeconds", r.warmup_seconds);
  o.Set("flushSeconds", r.flush_seconds);
  o.Set("cancelled", r.cancelled);
  o.Set("spec", SpecToJs(env, r.spec));
  if (IsPaced(r.spec)) o.Set("paced", PacedToJs(env, r.paced));
  if (IsSmallFiles(r.spec)) o.Set("smallFiles", SmallFilesToJs(env, r.small_files));
  if (r.spec.pattern == Pattern::kVerify && IsRead(r.spec.rw))
    o.Set("verify", VerifyToJs(env, r.verify));
  o.Set("engineVersion", kEngineVersion);
  return o;
}

Napi::Object ProgressToJs(Napi::Env env, const Progress& p) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("phase", PhaseName(p.phase));
  SetProgressFigures(o, p, p.bytes_total);
  if (p.frames_due > 0) {
    Napi::Object f = Napi::Object::New(env);
    SetNumbers(f, {{"due", p.frames_due},
                   {"onTime", p.frames_on_time},
                   {"late", p.frames_late},
                   {"dropped", p.frames_dropped}});
    o.Set("frames", f);
  }
  return o;
}

HashSpec HashSpecFromJs(const Napi::Object& o) {
  Napi::Env env = o.Env();
  HashSpec s;
  if (!ParseHashMode(String(o, "mode"), &s.mode))
    Bad(env, "mode", "one of read, read-hash, memory");
  if (!ParseHashAlgo(String(o, "algo"), &s.algo)) Bad(env, "algo", "sha256 or sha512");
  if (IsReadMode(s.mode) || Has(o, "path")) s.path = String(o, "path");
  OptionalBool(o, "followLinks", &s.follow_links);
  Optional(o, "chunkBytes", 1, kMaxSafe, &s.chunk_bytes);
  Optional(o, "buffers", 1, 1e6, &s.buffers);
  if (Has(o, "cache") && !ParseHashCache(String(o, "cache"), &s.cache))
    Bad(env, "cache", "auto, buffered-flushed or buffered");
  Optional(o, "threads", 1, kMaxThreads, &s.threads);
  Optional(o, "seconds", 0, kMaxSeconds, &s.seconds);
  Optional(o, "memoryBytes", 1, kMaxSafe, &s.memory_bytes);
  Optional(o, "progressIntervalMs", 1, kMaxIntervalMs, &s.progress_interval_ms);
  return s;
}

Napi::Object HashResultToJs(Napi::Env env, const HashResult& r) {
  const HashMode mode = r.spec.mode;
  Napi::Object o = Napi::Object::New(env);
  o.Set("mode", HashModeName(mode));
  o.Set("algo", HashAlgoName(r.spec.algo));
  o.Set("bytes", static_cast<double>(r.bytes));
  o.Set("seconds", r.seconds);
  o.Set("mbps", r.mbps);
  if (!r.digest.empty()) o.Set("digest", r.digest);
  if (IsReadMode(mode)) {
    o.Set("cacheMode", CacheModeName(r.cache_mode));
    if (!r.cache_note.empty()) o.Set("cacheNote", r.cache_note);
    o.Set("chunkBytes", static_cast<double>(r.chunk_bytes));
  }
  if (mode == HashMode::kReadHash) {
    o.Set("buffers", r.spec.buffers);
    o.Set("readerWaitSeconds", r.reader_wait_seconds);
    o.Set("hasherWaitSeconds", r.hasher_wait_seconds);
  }
  if (mode == HashMode::kMemory) o.Set("threads", r.spec.threads);
  o.Set("provider", r.provider);
  o.Set("cancelled", r.cancelled);
  o.Set("engineVersion", kEngineVersion);
  return o;
}

Napi::Object HashProgressToJs(Napi::Env env, const HashProgress& p) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("mode", HashModeName(p.mode));
  SetProgressFigures(o, p, p.bytes_total);
  return o;
}

CipherSpec CipherSpecFromJs(const Napi::Object& o) {
  Napi::Env env = o.Env();
  CipherSpec s;
  if (!ParseCipherAlgo(String(o, "algo"), &s.algo))
    Bad(env, "algo", "one of aes-256-xts, aes-256-gcm, kernel-xts");
  Optional(o, "threads", 1, kMaxThreads, &s.threads);
  Optional(o, "seconds", 0, kMaxSeconds, &s.seconds);
  Optional(o, "blockBytes", 1, kMaxSafe, &s.block_bytes);
  Optional(o, "dataUnit", 1, 1e9, &s.data_unit);
  Optional(o, "progressIntervalMs", 1, kMaxIntervalMs, &s.progress_interval_ms);
  return s;
}

Napi::Object CipherResultToJs(Napi::Env env, const CipherResult& r) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("algo", CipherAlgoName(r.spec.algo));
  o.Set("threads", r.spec.threads);
  o.Set("blockBytes", static_cast<double>(r.spec.block_bytes));
  o.Set("dataUnit", r.spec.data_unit);
  o.Set("bytes", static_cast<double>(r.bytes));
  o.Set("seconds", r.seconds);
  o.Set("mbps", r.mbps);
  o.Set("provider", r.provider);
  o.Set("cancelled", r.cancelled);
  return o;
}

Napi::Object CipherProgressToJs(Napi::Env env, const CipherProgress& p) {
  Napi::Object o = Napi::Object::New(env);
  SetProgressFigures(o, p, std::nullopt);
  return o;
}

Napi::Error StatusToJs(Napi::Env env, const Status& st) {
  Napi::Error e = Napi::Error::New(env, st.message());
  Napi::Object o = e.Value();
  o.Set("code", st.code.empty() ? ErrnoCode(st.err) : st.code);
  if (st.err) o.Set("errno", -st.err);
  if (!st.syscall.empty()) o.Set("syscall", st.syscall);
  if (!st.path.empty()) o.Set("path", st.path);
  return e;
}

}  // namespace dd::bindings
