// SPDX-License-Identifier: MIT
// npuscope_gen_trace: writes a synthetic torch_npu-shaped trace_view.json of a requested size, for
// load benchmarks. Shape as in ../shared/docs/ascend-profiling-format.md: the FWK part first
// (Python process: torch ops, op-plugin records, Enqueue@/Dequeue@ with async_task_queue flows,
// fwdbwd flows, ProfilerStep#N), then the msprof layers (CANN AscendCL@ / Node@launch with
// HostToDevice starts, Ascend Hardware kernels with HostToDevice finishes, Communication group
// ops and plane tasks, Overlap Analysis, AI Core Freq / NPU MEM counters), then the torch_to_npu
// (async_npu) flows. ts are 3-decimal strings, msprof pids are formatted (pid<<10)|(sort<<5)|dev.
// Every step ends with a host sync and a ~1 ms dispatch bubble.
//
// Usage: npuscope_gen_trace OUTPUT.json SIZE_MB [--seed N]
// The three parts are written to OUTPUT.json, OUTPUT.json.part2, OUTPUT.json.part3 and then
// concatenated into OUTPUT.json (the part files are removed).

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::int64_t kPid = 2210417;
constexpr std::int64_t kMain = 2210417;
constexpr std::int64_t kBwd = 2210533;
constexpr std::int64_t kDq = 2210498;
constexpr int kDev = 3;
constexpr std::int64_t fmtPid(int sort, int dev) { return (kPid << 10) | (sort << 5) | dev; }
constexpr std::int64_t kPidCann = fmtPid(7, 31);
constexpr std::int64_t kPidHw = fmtPid(14, kDev);
constexpr std::int64_t kPidFreq = fmtPid(15, kDev);
constexpr std::int64_t kPidComm = fmtPid(16, kDev);
constexpr std::int64_t kPidMem = fmtPid(17, kDev);
constexpr std::int64_t kPidOverlap = fmtPid(31, kDev);

/// A growable output buffer flushed to a FILE* in large blocks.
class Out {
 public:
  explicit Out(FILE* f) : f_(f) { buf_.reserve(kBlock + 65536); }
  ~Out() { flush(); }
  void s(std::string_view v) { buf_.append(v); maybeFlush(); }
  void c(char ch) { buf_.push_back(ch); }
  void i(std::int64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void u(std::uint64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  /// ns -> "123.456" (3 decimals, as torch_npu's ts strings)
  void ts(std::int64_t ns) {
    i(ns / 1000);
    c('.');
    int f = static_cast<int>(ns % 1000);
    c(static_cast<char>('0' + f / 100));
    c(static_cast<char>('0' + f / 10 % 10));
    c(static_cast<char>('0' + f % 10));
  }
  /// ns -> float µs as Python prints ns/1000 (no trailing zeros, at least one decimal)
  void dur(std::int64_t ns) {
    i(ns / 1000);
    c('.');
    int f = static_cast<int>(ns % 1000);
    if (f == 0) { c('0'); return; }
    char d[3] = {static_cast<char>('0' + f / 100), static_cast<char>('0' + f / 10 % 10),
                 static_cast<char>('0' + f % 10)};
    int n = 3;
    while (n > 1 && d[n - 1] == '0') --n;
    buf_.append(d, n);
  }
  std::uint64_t written() const { return total_ + buf_.size(); }
  void flush() {
    if (!buf_.empty()) {
      std::fwrite(buf_.data(), 1, buf_.size(), f_);
      total_ += buf_.size();
      buf_.clear();
    }
  }

 private:
  static constexpr std::size_t kBlock = 4u << 20;
  void maybeFlush() {
    if (buf_.size() >= kBlock) flush();
  }
  FILE* f_;
  std::string buf_;
  std::uint64_t total_ = 0;
};

/// xorshift64*: fast, deterministic.
struct Rng {
  std::uint64_t x;
  std::uint64_t next() {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 2685821657736338717ULL;
  }
  /// uniform ns in [lo_us, hi_us]
  std::int64_t us(double lo, double hi) {
    double r = static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0);
    return static_cast<std::int64_t>((lo + (hi - lo) * r) * 1000.0) / 10 * 10;
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
};

struct OpKind {
  const char* aten;
  const char* api;      // op-plugin record and AscendCL@ name
  const char* kernel;   // device kernel name
  const char* taskType;
  const char* dims;
  const char* types;
  double kLo, kHi;      // kernel duration, µs
};

const OpKind kOps[] = {
    {"aten::mm", "aclnnMm", "aclnnMm_MatMulCommon_MatMulV2", "AI_CORE",
     "4096,4096;\\r\\n4096,11008", "c10::BFloat16;\\r\\nc10::BFloat16", 80, 260},
    {"aten::add", "aclnnAdd", "aclnnAdd_AddAiCore_Add", "AI_VECTOR_CORE",
     "1,4096,4096;\\r\\n1,4096,4096;\\r\\n", "c10::BFloat16;\\r\\nc10::BFloat16;\\r\\nScalar", 6, 30},
    {"aten::mul", "aclnnMul", "aclnnMul_MulAiCore_Mul", "AI_VECTOR_CORE",
     "1,4096,11008;\\r\\n1,4096,11008", "c10::BFloat16;\\r\\nc10::BFloat16", 8, 40},
    {"aten::silu", "aclnnSilu", "aclnnSilu_SwishAiCore_Swish", "AI_VECTOR_CORE",
     "1,4096,11008", "c10::BFloat16", 10, 35},
    {"npu::npu_rms_norm", "aclnnRmsNorm", "aclnnRmsNorm_RmsNormAiCore_RmsNorm", "AI_VECTOR_CORE",
     "1,4096,4096;\\r\\n4096;\\r\\n", "c10::BFloat16;\\r\\nc10::BFloat16;\\r\\nScalar", 12, 28},
    {"npu::npu_fusion_attention", "aclnnFlashAttentionScore",
     "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore", "MIX_AIC",
     "1,4096,32,128;\\r\\n1,4096,32,128;\\r\\n1,4096,32,128;\\r\\n;\\r\\n;\\r\\n;\\r\\n",
     "c10::BFloat16;\\r\\nc10::BFloat16;\\r\\nc10::BFloat16;\\r\\nNone;\\r\\nNone;\\r\\nNone", 300, 900},
    {"aten::copy_", "aclnnInplaceCopy", "aclnnInplaceCopy_TensorMoveAiCore_TensorMove",
     "AI_VECTOR_CORE", "1,4096,4096;\\r\\n1,4096,4096;\\r\\n", "c10::BFloat16;\\r\\nc10::BFloat16;\\r\\nScalar",
     4, 20},
};

class Gen {
 public:
  Gen(FILE* fwk, FILE* ms, FILE* fl, std::uint64_t seed) : a_(fwk), b_(ms), f_(fl), rng_{seed | 1} {}

  void header() {
    a_.s("[");
    meta(a_, true, kPid, 0, "process_name", "name", "\"Python\"");
    meta(a_, false, kPid, 0, "process_labels", "labels", "\"CPU\"");
    meta(a_, false, kPid, 0, "process_sort_index", "sort_index", "0");
    for (auto [tid, sidx] : {std::pair{kMain, kMain}, {kBwd, kBwd}, {kDq, kBwd + 1}}) {
      std::string n = "\"Thread " + std::to_string(tid) + "\"";
      meta(a_, false, kPid, tid, "thread_name", "name", n);
      meta(a_, false, kPid, tid, "thread_sort_index", "sort_index", std::to_string(sidx));
    }
    bool first = true;
    auto proc = [&](std::int64_t pid, const char* name, const char* label, int sort) {
      meta(b_, first, pid, 0, "process_name", "name", std::string("\"") + name + "\"");
      first = false;
      meta(b_, false, pid, 0, "process_labels", "labels", std::string("\"") + label + "\"");
      meta(b_, false, pid, 0, "process_sort_index", "sort_index", std::to_string(sort));
    };
    auto thread = [&](std::int64_t pid, std::int64_t tid, const std::string& name) {
      meta(b_, false, pid, tid, "thread_name", "name", "\"" + name + "\"");
      meta(b_, false, pid, tid, "thread_sort_index", "sort_index", std::to_string(tid));
    };
    const std::string npu = "NPU " + std::to_string(kDev);
    proc(kPidCann, "CANN", "CPU", 7);
    thread(kPidCann, kMain, "Thread " + std::to_string(kMain));
    thread(kPidCann, kDq, "Thread " + std::to_string(kDq));
    proc(kPidHw, "Ascend Hardware", npu.c_str(), 14);
    thread(kPidHw, 2, "Stream 2");
    thread(kPidHw, 9, "Stream 9");
    proc(kPidFreq, "AI Core Freq", npu.c_str(), 15);
    proc(kPidComm, "Communication", npu.c_str(), 16);
    thread(kPidComm, 0, "Group 10.0.0.1%enp189s0f0_60000_0_1738810043467917 Communication");
    for (int k = 0; k < 4; ++k) thread(kPidComm, k + 1, "Plane " + std::to_string(k));
    proc(kPidMem, "NPU MEM", npu.c_str(), 17);
    proc(kPidOverlap, "Overlap Analysis", npu.c_str(), 31);
    thread(kPidOverlap, 0, "Computing");
    thread(kPidOverlap, 1, "Communication");
    thread(kPidOverlap, 2, "Communication(Not Overlapped)");
    thread(kPidOverlap, 3, "Free");
  }

  /// One training step of `ops` dispatched ops (forward on main, backward on the autograd thread).
  void step(int n, int ops) {
    const std::int64_t stepStart = tHost_;
    tHost_ += rng_.us(8, 15);
    for (int k = 0; k < ops; ++k) {
      const bool backward = k >= ops / 2;
      const std::int64_t tid = backward ? kBwd : kMain;
      if (k % 97 == 50) collective(tid);
      else dispatch(tid, kOps[rng_.below(sizeof kOps / sizeof kOps[0])], backward, k, ops);
    }
    // loss.item(): sync until the device drains, then a ~1 ms host-bound bubble.
    std::int64_t syncStart = tHost_ + rng_.us(3, 8);
    std::int64_t syncEnd = std::max(syncStart + 5000, tDev_ + rng_.us(6, 12));
    cannX(kMain, "AscendCL@aclrtSynchronizeStream", syncStart, syncEnd - syncStart, "ACL_RTS", "acl",
          "aclrtSynchronizeStream", conn_++);
    tHost_ = syncEnd + rng_.us(900, 1300);
    seqBase_ += ops;
    fwkX(a_, "ProfilerStep#" + std::to_string(n), kMain, stepStart, tHost_ - stepStart, -1, 0,
         nullptr, nullptr);
    tHost_ += rng_.us(20, 40);
  }

  void counters() {
    if (tDev_ < nextCounter_) return;
    nextCounter_ = tDev_ + 100000;
    comma(b_);
    b_.s("{\"name\": \"AI Core Freq\", \"ts\": \"");
    b_.ts(tDev_);
    b_.s("\", \"pid\": ");
    b_.i(kPidFreq);
    b_.s(", \"tid\": 0, \"args\": {\"MHz\": ");
    b_.i(1800 - 100 * static_cast<int>(rng_.below(3)));
    b_.s("}, \"ph\": \"C\"}");
    for (const char* series : {"APP/HBM", "Device/HBM"}) {
      comma(b_);
      b_.s("{\"name\": \"");
      b_.s(series);
      b_.s("\", \"ts\": \"");
      b_.ts(tDev_);
      b_.s("\", \"pid\": ");
      b_.i(kPidMem);
      b_.s(", \"tid\": 0, \"args\": {\"KB\": ");
      b_.i(30000000 + rng_.below(200000));
      b_.s(".0}, \"ph\": \"C\"}");
    }
  }

  void finish() {
    a_.s(",");  // torch_npu appends "," + msprof part + flows + "]" to the FWK array
    b_.s(",");
    f_.s("]");
  }
  std::uint64_t written() const { return a_.written() + b_.written() + f_.written(); }
  std::uint64_t events() const { return events_; }
  void flush() { a_.flush(); b_.flush(); f_.flush(); }

 private:
  void comma(Out& o) {
    ++events_;
    if (&o == &a_) { if (!aFirst_) o.s(", "); aFirst_ = false; }
    else if (&o == &b_) { if (!bFirst_) o.s(", "); bFirst_ = false; }
    else { if (!fFirst_) o.s(", "); fFirst_ = false; }
  }
  void meta(Out& o, bool /*first*/, std::int64_t pid, std::int64_t tid, const char* name,
            const char* key, const std::string& value) {
    comma(o);
    if (&o == &a_) {
      o.s("{\"ph\": \"M\", \"name\": \"");
      o.s(name);
      o.s("\", \"pid\": ");
      o.i(pid);
      o.s(", \"tid\": ");
      o.i(tid);
      o.s(", \"args\": {\"");
      o.s(key);
      o.s("\": ");
      o.s(value);
      o.s("}}");
    } else {
      o.s("{\"name\": \"");
      o.s(name);
      o.s("\", \"pid\": ");
      o.i(pid);
      o.s(", \"tid\": ");
      o.i(tid);
      o.s(", \"args\": {\"");
      o.s(key);
      o.s("\": ");
      o.s(value);
      o.s("}, \"ph\": \"M\"}");
    }
  }
  void fwkX(Out& o, std::string_view name, std::int64_t tid, std::int64_t ts, std::int64_t dur,
            std::int64_t seq, int fwd, const char* dims, const char* types,
            const char* cat = "cpu_op", std::int64_t corr = -1) {
    comma(o);
    o.s("{\"ph\": \"X\", \"name\": \"");
    o.s(name);
    o.s("\", \"pid\": ");
    o.i(kPid);
    o.s(", \"tid\": ");
    o.i(tid);
    o.s(", \"ts\": \"");
    o.ts(ts);
    o.s("\", \"dur\": ");
    o.dur(dur);
    o.s(", \"cat\": \"");
    o.s(cat);
    o.s("\", \"args\": {");
    if (corr >= 0) {
      o.s("\"correlation_id\": ");
      o.i(corr);
    } else {
      o.s("\"Sequence number\": ");
      o.i(seq);
      o.s(", \"Fwd thread id\": ");
      o.i(fwd);
      if (dims) {
        o.s(", \"Input Dims\": \"");
        o.s(dims);
        o.s("\", \"Input type\": \"");
        o.s(types);
        o.c('"');
      }
    }
    o.s("}}");
  }
  void torchFlow(Out& o, const char* ph, const char* name, const char* cat, std::int64_t id,
                 std::int64_t pid, std::int64_t tid, std::int64_t ts) {
    comma(o);
    o.s("{\"ph\": \"");
    o.s(ph);
    o.s("\", \"bp\": \"e\", \"name\": \"");
    o.s(name);
    o.s("\", \"id\": ");
    o.i(id);
    o.s(", \"pid\": ");
    o.i(pid);
    o.s(", \"tid\": ");
    o.i(tid);
    o.s(", \"ts\": \"");
    o.ts(ts);
    o.s("\", \"cat\": \"");
    o.s(cat);
    o.s("\"}");
  }
  void cannX(std::int64_t tid, std::string_view name, std::int64_t ts, std::int64_t dur,
             const char* mode, const char* level, std::string_view id, std::int64_t conn,
             std::string_view item = "0") {
    comma(b_);
    b_.s("{\"name\": \"");
    b_.s(name);
    b_.s("\", \"pid\": ");
    b_.i(kPidCann);
    b_.s(", \"tid\": ");
    b_.i(tid);
    b_.s(", \"ts\": \"");
    b_.ts(ts);
    b_.s("\", \"dur\": ");
    b_.dur(dur);
    b_.s(", \"args\": {\"Thread Id\": ");
    b_.i(tid);
    b_.s(", \"Mode\": \"");
    b_.s(mode);
    b_.s("\", \"level\": \"");
    b_.s(level);
    b_.s("\", \"id\": \"");
    b_.s(id);
    b_.s("\", \"item_id\": \"");
    b_.s(item);
    b_.s("\", \"connection_id\": ");
    b_.i(conn);
    b_.s("}, \"ph\": \"X\"}");
  }
  void h2d(const char* ph, std::int64_t conn, std::int64_t pid, std::int64_t tid, std::int64_t ts) {
    comma(b_);
    const std::uint64_t id = static_cast<std::uint64_t>(conn) << 32;
    b_.s("{\"name\": \"HostToDevice");
    b_.u(id);
    b_.s("\", \"ph\": \"");
    b_.s(ph);
    if (ph[0] == 's') {
      b_.s("\", \"cat\": \"HostToDevice\", \"id\": \"");
      b_.u(id);
      b_.s("\", \"pid\": ");
      b_.i(pid);
      b_.s(", \"tid\": ");
      b_.i(tid);
      b_.s(", \"ts\": \"");
      b_.ts(ts);
      b_.s("\"}");
    } else {
      b_.s("\", \"id\": \"");
      b_.u(id);
      b_.s("\", \"ts\": \"");
      b_.ts(ts);
      b_.s("\", \"cat\": \"HostToDevice\", \"pid\": ");
      b_.i(pid);
      b_.s(", \"tid\": ");
      b_.i(tid);
      b_.s(", \"bp\": \"e\"}");
    }
  }
  void hwX(std::int64_t tid, std::string_view name, std::int64_t ts, std::int64_t dur,
           const char* taskType, std::int64_t conn) {
    comma(b_);
    b_.s("{\"name\": \"");
    b_.s(name);
    b_.s("\", \"pid\": ");
    b_.i(kPidHw);
    b_.s(", \"tid\": ");
    b_.i(tid);
    b_.s(", \"ts\": \"");
    b_.ts(ts);
    b_.s("\", \"dur\": ");
    b_.dur(dur);
    b_.s(", \"args\": {\"Model Id\": 4294967295, \"Task Type\": \"");
    b_.s(taskType);
    b_.s("\", \"Physic Stream Id\": ");
    b_.i(tid);
    b_.s(", \"Task Id\": ");
    b_.i(taskId_++);
    b_.s(", \"Batch Id\": 0, \"Subtask Id\": 4294967295, \"connection_id\": ");
    b_.i(conn);
    b_.s("}, \"ph\": \"X\"}");
  }
  void overlapX(const char* name, int tid, std::int64_t ts, std::int64_t dur) {
    if (dur <= 0) return;
    comma(b_);
    b_.s("{\"name\": \"");
    b_.s(name);
    b_.s("\", \"pid\": ");
    b_.i(kPidOverlap);
    b_.s(", \"tid\": ");
    b_.i(tid);
    b_.s(", \"ts\": \"");
    b_.ts(ts);
    b_.s("\", \"dur\": ");
    b_.dur(dur);
    b_.s(", \"args\": {}, \"ph\": \"X\"}");
  }
  /// Device task at or after `ready` on stream 2; emits Computing/Free and returns its start.
  std::int64_t deviceSlot(std::int64_t ready, std::int64_t dur, bool compute) {
    std::int64_t start = std::max(ready, tDev_ + rng_.us(1, 3));
    if (tDev_ > 0 && start > tDev_) overlapX("Free", 3, tDev_, start - tDev_);
    if (compute) overlapX("Computing", 0, start, dur);
    tDev_ = start + dur;
    return start;
  }

  void dispatch(std::int64_t tid, const OpKind& op, bool backward, int k, int ops) {
    // aten op > op-plugin record > Enqueue@ on the host thread.
    const std::int64_t opStart = tHost_;
    std::int64_t t = opStart + rng_.us(3, 9);
    const std::int64_t recStart = t;
    t += rng_.us(1, 3);
    const std::int64_t enqStart = t;
    const std::int64_t enqDur = rng_.us(3, 8);
    const std::int64_t corr = corr_++;
    t += enqDur + rng_.us(1, 3);
    const std::int64_t recEnd = t;
    t += rng_.us(2, 6);
    // Backward op k mirrors forward op ops-1-k (same Sequence number, fwdbwd flow between them).
    const int partner = ops - 1 - k;
    const std::int64_t seq = seqBase_ + (backward ? partner : k);
    fwkX(a_, op.aten, tid, opStart, t - opStart, seq, backward ? 1 : 0, op.dims, op.types);
    if (partner % 97 != 50)
      torchFlow(a_, backward ? "f" : "s", "fwdbwd", "fwdbwd", seq, kPid, tid, opStart);
    fwkX(a_, op.api, tid, recStart, recEnd - recStart, -1, 0, nullptr, nullptr);
    std::string enq = std::string("Enqueue@") + op.api;
    fwkX(a_, enq, tid, enqStart, enqDur, 0, 0, nullptr, nullptr, "enqueue", corr);
    torchFlow(a_, "s", "enqueue_to_dequeue", "async_task_queue", corr, kPid, tid, enqStart);
    tHost_ = t + rng_.us(4, 20);
    // Dequeue@ on the task-queue thread with the CANN API and Node@launch inside.
    const std::int64_t dqStart = std::max(enqStart + rng_.us(8, 16), tDq_ + rng_.us(1, 3));
    std::int64_t u = dqStart + rng_.us(2, 4);
    const std::int64_t apiStart = u;
    const std::int64_t launchStart = u + rng_.us(2, 6);
    const std::int64_t launchDur = rng_.us(3, 7);
    const std::int64_t conn = conn_++;
    const std::int64_t apiEnd = launchStart + launchDur + rng_.us(1, 3);
    const std::int64_t dqEnd = apiEnd + rng_.us(1, 3);
    tDq_ = dqEnd;
    std::string deq = std::string("Dequeue@") + op.api;
    fwkX(a_, deq, kDq, dqStart, dqEnd - dqStart, 0, 0, nullptr, nullptr, "dequeue", corr);
    torchFlow(a_, "f", "enqueue_to_dequeue", "async_task_queue", corr, kPid, kDq, dqStart);
    cannX(kDq, std::string("AscendCL@") + op.api, apiStart, apiEnd - apiStart, "ACL_NN", "acl",
          op.api, conn_++);
    cannX(kDq, "Node@launch", launchStart, launchDur, "launch", "node", "0", conn, op.kernel);
    h2d("s", conn, kPidCann, kDq, launchStart);
    // The device task.
    const std::int64_t kDur = rng_.us(op.kLo, op.kHi);
    const std::int64_t kStart = deviceSlot(launchStart + launchDur + rng_.us(8, 15), kDur, true);
    hwX(2, op.kernel, kStart, kDur, op.taskType, conn);
    h2d("f", conn, kPidHw, 2, kStart);
    torchFlow(f_, "s", "torch_to_npu", "async_npu", kStart, kPid, tid, recStart);
    torchFlow(f_, "f", "torch_to_npu", "async_npu", kStart, kPidHw, 2, kStart);
    counters();
  }

  void collective(std::int64_t tid) {
    // An HCCL all-reduce: host op, Enqueue/Dequeue, the group big op with plane tasks.
    const std::int64_t opStart = tHost_;
    const std::int64_t corr = corr_++;
    const std::int64_t enqStart = opStart + rng_.us(5, 10);
    const std::int64_t enqDur = rng_.us(3, 7);
    const std::int64_t opEnd = enqStart + enqDur + rng_.us(3, 8);
    fwkX(a_, "HcclAllreduce", tid, opStart, opEnd - opStart, -1, 0, nullptr, nullptr);
    fwkX(a_, "Enqueue@HcclAllreduce", tid, enqStart, enqDur, 0, 0, nullptr, nullptr, "enqueue", corr);
    torchFlow(a_, "s", "enqueue_to_dequeue", "async_task_queue", corr, kPid, tid, enqStart);
    tHost_ = opEnd + rng_.us(5, 15);
    const std::int64_t dqStart = std::max(enqStart + rng_.us(8, 16), tDq_ + rng_.us(1, 3));
    const std::int64_t conn = conn_++;
    const std::int64_t apiStart = dqStart + rng_.us(2, 4);
    const std::int64_t apiEnd = apiStart + rng_.us(20, 40);
    tDq_ = apiEnd + rng_.us(1, 3);
    fwkX(a_, "Dequeue@HcclAllreduce", kDq, dqStart, tDq_ - dqStart, 0, 0, nullptr, nullptr,
         "dequeue", corr);
    torchFlow(a_, "f", "enqueue_to_dequeue", "async_task_queue", corr, kPid, kDq, dqStart);
    cannX(kDq, "AscendCL@hcom_allReduce_", apiStart, apiEnd - apiStart, "ACL_RTS", "communication",
          "hcom_allReduce_", conn);
    h2d("s", conn, kPidCann, kDq, apiStart + 1000);
    const std::int64_t dur = rng_.us(200, 600);
    const std::int64_t start = std::max(apiEnd + rng_.us(10, 20), tDev_ + rng_.us(1, 3));
    // Communication does not overlap compute here: Free up to it, then Comm(Not Overlapped).
    overlapX("Free", 3, tDev_, start - tDev_);
    overlapX("Communication", 1, start, dur);
    overlapX("Communication(Not Overlapped)", 2, start, dur);
    tDev_ = start + dur;
    std::string name = "hcom_allReduce__" + std::to_string(hcclId_++) + "_0_1";
    comma(b_);
    b_.s("{\"name\": \"");
    b_.s(name);
    b_.s("\", \"pid\": ");
    b_.i(kPidComm);
    b_.s(", \"tid\": 0, \"ts\": \"");
    b_.ts(start);
    b_.s("\", \"dur\": ");
    b_.dur(dur);
    b_.s(", \"args\": {\"connection_id\": ");
    b_.i(conn);
    b_.s(", \"model id\": 4294967295, \"data_type\": \"FP32\", \"alg_type\": \"MESH-RING-NHR\", "
         "\"count\": 4194304, \"relay\": \"no\", \"retry\": \"no\", \"rank_size\": 8}, \"ph\": \"X\"}");
    h2d("f", conn, kPidComm, 0, start);
    torchFlow(f_, "s", "torch_to_npu", "async_npu", start, kPid, tid, opStart);
    torchFlow(f_, "f", "torch_to_npu", "async_npu", start, kPidComm, 0, start);
    static const char* kTasks[] = {"Notify_Wait", "Memcpy", "Notify_Record", "Reduce_Inline"};
    for (int plane = 0; plane < 4; ++plane) {
      std::int64_t t = start + rng_.us(0.5, 2);
      for (int j = 0; j < 4; ++j) {
        const std::int64_t d = rng_.us(2, dur / 5000.0);
        comma(b_);
        b_.s("{\"name\": \"");
        b_.s(kTasks[j]);
        b_.s("\", \"pid\": ");
        b_.i(kPidComm);
        b_.s(", \"tid\": ");
        b_.i(plane + 1);
        b_.s(", \"ts\": \"");
        b_.ts(t);
        b_.s("\", \"dur\": ");
        b_.dur(d);
        b_.s(", \"args\": {\"notify_id\": \"1407374883553280\", \"duration estimated(us)\": 1.2, "
             "\"stream id\": 9, \"task id\": ");
        b_.i(taskId_++);
        b_.s(", \"context id\": 4294967295, \"task type\": \"");
        b_.s(kTasks[j]);
        b_.s("\", \"src rank\": 3, \"dst rank\": ");
        b_.i(plane);
        b_.s(", \"transport type\": \"SDMA\", \"size(Byte)\": 2097152, \"data type\": \"FP32\", "
             "\"link type\": \"HCCS\", \"bandwidth(GB/s)\": 21.7, \"model id\": 4294967295}, "
             "\"ph\": \"X\"}");
        t += d + rng_.us(0.5, 2);
      }
    }
  }

  Out a_, b_, f_;
  Rng rng_;
  bool aFirst_ = true, bFirst_ = true, fFirst_ = true;
  std::uint64_t events_ = 0;
  std::int64_t tHost_ = 1764300000000000000LL + 123456789;
  std::int64_t tDq_ = 0;
  std::int64_t tDev_ = 0;
  std::int64_t nextCounter_ = 0;
  std::int64_t corr_ = 100000;
  std::int64_t conn_ = 50000;
  std::int64_t taskId_ = 1;
  std::int64_t seqBase_ = 30000;
  std::int64_t hcclId_ = 400;
};

bool appendFile(FILE* dst, const std::string& path) {
  FILE* src = std::fopen(path.c_str(), "rb");
  if (!src) return false;
  std::vector<char> buf(8u << 20);
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), src)) > 0) std::fwrite(buf.data(), 1, n, dst);
  std::fclose(src);
  std::remove(path.c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUTPUT.json SIZE_MB [--seed N]\n", argv[0]);
    return 2;
  }
  const std::string out = argv[1];
  const double sizeMb = std::atof(argv[2]);
  std::uint64_t seed = 20261129;
  for (int i = 3; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--seed") == 0) seed = std::strtoull(argv[i + 1], nullptr, 10);
  const std::uint64_t target = static_cast<std::uint64_t>(sizeMb * 1024 * 1024);
  const std::string p2 = out + ".part2", p3 = out + ".part3";
  FILE* fa = std::fopen(out.c_str(), "wb");
  FILE* fb = std::fopen(p2.c_str(), "wb");
  FILE* fc = std::fopen(p3.c_str(), "wb");
  if (!fa || !fb || !fc) {
    std::perror("fopen");
    return 1;
  }
  std::uint64_t events = 0;
  {
    Gen g(fa, fb, fc, seed);
    g.header();
    int n = 1;
    while (g.written() < target) g.step(n++, 400);
    g.finish();
    g.flush();
    events = g.events();
  }
  std::fclose(fb);
  std::fclose(fc);
  if (!appendFile(fa, p2) || !appendFile(fa, p3)) {
    std::perror("append");
    return 1;
  }
  const long bytes = std::ftell(fa);
  std::fclose(fa);
  std::printf("%s: %.1f MB, %llu events\n", out.c_str(), bytes / 1048576.0,
              static_cast<unsigned long long>(events));
  return 0;
}
