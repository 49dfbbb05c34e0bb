// SPDX-License-Identifier: MIT
#pragma once
// HCCL collectives (docs/diagnosis.md §5.3): each op of one device split into elapse / transit /
// wait / synchronization / idle by the profiler's own rule, computed from the op slices and their
// plane tasks (never copied from communication.json or analysis.db, which are shown beside them
// as `recorded`); and the same op instance matched across the ranks of a profile, with each
// rank's clock offset, its skew, the late rank and what the others lose waiting for it.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/types.h"
#include "core/model/trace.h"
#include "core/tables/communication_json.h"

namespace npuscope::core {

struct Profile;
struct StepWindow;
struct RankSummary;

/// The ranks of a profile as the cross-rank stage sees them (rank_summary.h), in Profile::ranks
/// order; a null entry for a rank with nothing to compare.
using RankSummaries = std::vector<std::shared_ptr<const RankSummary>>;

/// Bytes and time of the transfers of one transport (link type), summed over tasks.
struct CommLink {
  /// "HCCS", "PCIE", "SIO", "RDMA" (the link type of an SDMA transfer, or RDMA), and "SDMA" for the
  /// sum of HCCS, PCIE and SIO (communication.json's "Total Op Info" writes SDMA that way).
  std::string transport;
  std::uint64_t bytes = 0;  ///< summed `size(Byte)`
  TimeNs time = 0;          ///< summed task durations, ns
  std::size_t tasks = 0;
  /// bytes / time in GB/s (1 GB = 1e9 bytes, as the profiler's MB = 1e6 bytes and ms); 0 without time.
  [[nodiscard]] double bandwidthGBs() const {
    return time > 0 ? static_cast<double>(bytes) / static_cast<double>(time) : 0.0;
  }
};

/// The nominal bandwidth of a link type on `chip`, GB/s, or 0 when none is known (SDMA on the
/// chip, SIO, unknown links), msprof's table (Ascend/msprof 9ba1ac7,
/// analysis/common_func/ms_constant/number_constant.py, read by msparser/cluster/meta_parser.py
/// HcclAnalysisTool.StandardBandWidth against BANDWIDTH_THRESHOLD 0.8): every Ascend910B model
/// (ChipModel V4_1_0) HCCS 28, RDMA 25 and no PCIE figure; the Ascend910A (V2_1_0) HCCS 18, PCIE 20,
/// RDMA 12.5. A chip not recorded, or another chip, takes the 910A's figures, the lowest: below
/// them a link is slow on any chip (msprof-analyze's advisor uses the same 18 GB/s as its SDMA
/// baseline, bandwidth_contention.yaml); docs/diagnosis.md §5.3 (issue 41 item 5).
[[nodiscard]] inline double nominalLinkGBs(std::string_view transport, std::string_view chip = {}) {
  if (chip.starts_with("Ascend910B")) {
    if (transport == "HCCS") return 28.0;
    if (transport == "RDMA") return 25.0;
    return 0.0;
  }
  if (transport == "HCCS") return 18.0;
  if (transport == "PCIE") return 20.0;
  if (transport == "RDMA") return 12.5;
  return 0.0;
}

/// The transfers of one device to one peer over one transport (communication_matrix.json's
/// "src-dst" entries): `peer` is the `dst rank` (the rank in the HCCL group), `self` the `src rank`.
struct CommPeerLink {
  int self = -1;
  int peer = -1;
  CommLink link;  ///< transport, bytes, time, tasks
  /// bandwidth / nominalLinkGBs(transport, chip), 0 when the transport has no nominal.
  [[nodiscard]] double nominalShare(std::string_view chip = {}) const;
};

/// Which peer a wait was for, and for how long (ns). `peer` is the rank in the op's group as the
/// plane task writes it (`dst rank` of a Notify_Wait), -1 when not recorded.
struct PeerWait {
  int peer = -1;
  TimeNs ns = 0;
  SliceRef longest;  ///< the longest such wait task (to select on the timeline)
};

/// The first Notify_Wait of an op on one peer (its `dst rank`, a group rank), over all planes:
/// when the device began to wait for that peer's first signal and when the signal came, on the
/// device's own clock (ns). On a mesh the peer signals as it reaches the op, so a wait that
/// blocks ends at the peer's arrival (docs/diagnosis.md §5.4 "The holder").
struct FirstWait {
  int peer = -1;
  TimeRange r;
};

/// One HCCL op (a depth-0 slice of a "Group k Communication" lane) of one device.
struct CommOp {
  SliceRef slice;          ///< the op slice
  std::string name;        ///< as written, e.g. "hcom_allReduce__586_0_1"
  std::string type;        ///< "allReduce" (between "hcom_" and the next '_'), else the name without trailing digits
  std::string groupLane;   ///< the group lane's name, "Group 0 Communication"
  /// The group as the name tells it: the number after "hcom_<type>__" (the last digits of the HCCL
  /// group hash, "586"), else the lane name. Ops of one group on several ranks share it, except
  /// where the profiler writes per-rank prefixes (then matchCollectives pairs them by order).
  std::string groupKey;
  std::size_t sequence = 0;    ///< index among the device's ops of the same groupKey and type, by start
  TimeRange range;             ///< the op slice's extent, ns (the rank's own clock)
  int selfRank = -1;           ///< `src rank` of its plane tasks: the device's rank in the group
  std::vector<int> peers;      ///< `dst rank`s of its plane tasks other than itself, ascending
  /// Plane tasks were recorded (Level1 and above). Without them only `elapse` (the op slice) is
  /// known and the other four figures are unknown.
  bool hasTasks = false;
  int masterPlane = -1;        ///< the plane counted (docs/diagnosis.md §5.3), -1 without tasks
  /// Elements the op reduces or moves (the op slice's `count` arg; COMMUNICATION_OP.count), -1
  /// when not recorded.
  std::int64_t count = -1;
  TimeNs elapse = 0;           ///< last task end - first task start over all planes (else the op slice), ns
  TimeNs transit = 0;          ///< master's transfer tasks (SDMA not ON_CHIP, RDMA), summed, ns
  TimeNs wait = 0;             ///< master's Notify_Wait tasks, summed, ns
  TimeNs synchronization = 0;  ///< master's Notify_Wait tasks before its first transfer, summed, ns
  TimeNs idle = 0;             ///< elapse - transit - wait, ns
  PeerWait syncPeer;           ///< the peer the synchronization waited for (the longest such wait)
  /// The longest Notify_Wait of a plane other than the master while the master plane is idle: the
  /// evidence of what idle time is ("plane 5 waits 78.8 ms for rank 5"); ns 0 when none.
  PeerWait idleWait;
  /// When the device signalled its first peer: the start of its first Notify_Record to another
  /// group rank, over all planes (own clock, ns); -1 without one (Level0, or no signal task).
  /// ready - range.start is the op's preamble, the time a peer's wait end lags its arrival.
  TimeNs ready = -1;
  /// The first Notify_Wait on each peer, by peer ascending (Level1 and above; empty at Level0).
  std::vector<FirstWait> firstWaits;
  /// The latest end of a Notify_Wait on any plane lasting at least kLateRankMinSkewNs and twice
  /// the op's longest transfer task (own clock, ns): the last time a peer held the device inside
  /// the op (a pipelined ring step waits about one transfer for its upstream); -1 when none.
  TimeNs lastBlockedWaitEnd = -1;
  /// The latest end of a Notify_Wait lasting at least kLateRankMinSkewNs, without the transfer
  /// allowance (own clock, ns; -1 none): what a rank seen alone is judged by (one rank cannot tell
  /// a pipelined step's wait from a hidden member's lateness, docs/diagnosis.md §5.4).
  TimeNs lastLongWaitEnd = -1;
  /// The op's transfers per transport over all its planes (as CommBreakdown::links, SDMA last):
  /// communication.json's "Communication Bandwidth Info" of the op.
  std::vector<CommLink> links;
  /// The op's transfers per (peer, transport), off the chip only.
  std::vector<CommPeerLink> peerLinks;
  /// The link of `transport` ("SDMA", "RDMA", "HCCS", ...), or null.
  [[nodiscard]] const CommLink* link(std::string_view transport) const {
    for (const CommLink& l : links)
      if (l.transport == transport) return &l;
    return nullptr;
  }
  /// communication.json / analysis.db CommAnalyzerTime for this op (matched by name, in order),
  /// when the rank has it: shown beside, never used for the figures.
  std::optional<CommOpTimes> recorded;
};

/// The ops of `device` in start order, each split by the profiler's rule (docs/diagnosis.md
/// §5.3). `json` (may be null) gives `recorded`. `links` (may be null) receives the transfer bytes
/// and time per transport over all planes and ops (communication.json's bandwidth info).
/// Intervals of the split inside the ops go to `split` when given. O(plane tasks log ops).
struct CommOpIntervals {
  std::vector<TimeRange> synchronization, transit, wait;  ///< master plane tasks, per class
  std::vector<std::pair<TimeRange, int>> peerWaits;       ///< Notify_Waits of other planes, with the peer
  std::vector<TimeRange> otherTransfers;                  ///< transfer tasks of other planes
  std::vector<std::pair<TimeRange, int>> syncWaits;       ///< the synchronization waits, with the peer
};
[[nodiscard]] std::vector<CommOp> commOps(const Trace& trace, int device, const CommunicationJson* json,
                                          std::vector<CommLink>* links, CommOpIntervals* split);

/// The ops of a rank that has no trace, from its communication.json (`json.ops`, p2p ones
/// included: the cross-rank stage leaves them out): each op's name without its "@group" suffix,
/// type and group key as commOps parses them, sequence by (group key, type) in start order, range
/// [Start Timestamp, + Elapse Time) on the trace's clock (format notes §5.2), `recorded` the
/// record; no plane tasks (hasTasks false), so the holder is only bounded, with the profiler's own
/// synchronization (issue 41 item 9; docs/diagnosis.md §5.4). Ops without a start are left out.
[[nodiscard]] std::vector<CommOp> commOpsFromRecords(const CommunicationJson& json);

/// A rank whose skew is at least this is called late (ns): below it, launch jitter and the clock
/// offset estimate's error dominate (docs/diagnosis.md §5.4).
inline constexpr TimeNs kLateRankMinSkewNs = 50'000;

/// One rank's part in a Collective.
struct CollectiveRank {
  std::size_t rankIndex = 0;  ///< into Profile::ranks
  int rank = -1;              ///< RankProfile::rank()
  std::size_t opIndex = 0;    ///< into that rank's first DeviceAnalysis::comm.ops (collectiveOp)
  TimeNs start = 0;           ///< op start on the rank's own clock, ns
  TimeNs correctedStart = 0;  ///< start - the rank's clock offset, ns
  TimeNs skew = 0;            ///< correctedStart - the earliest correctedStart of the collective, ns
  /// What it waits for the holder (Known or Unverified): the holder's arrival - correctedStart
  /// when that is at least kLateRankMinSkewNs, else 0 (its share of Collective::lost), ns.
  TimeNs waited = 0;
};

/// A group rank of a collective that no loaded rank is, as the loaded ranks' first waits on it
/// tell its arrival (docs/diagnosis.md §5.4 "The holder").
struct OutsideArrival {
  int groupRank = -1;
  /// Some loaded rank's first wait on it blocked (lasted at least kLateRankMinSkewNs): it arrived
  /// then. Otherwise it was there before every loaded rank that waited on it, and `arrival` is
  /// the earliest such wait's start (an upper bound).
  bool blocked = false;
  /// Its arrival on the reference clock in the terms of an op start: the latest blocked first
  /// wait's end, less the waiting rank's clock offset and its own preamble (CommOp::ready - start),
  /// ns.
  TimeNs arrival = 0;
  int seenBy = -1;  ///< the loaded rank (RankProfile::rank()) whose wait gives `arrival`
};

/// The member of a collective's group that arrives last: the one the others wait for
/// (docs/diagnosis.md §5.4 "The holder").
struct Holder {
  enum class Status : std::uint8_t {
    /// Fewer than two members known, or no member arrives kLateRankMinSkewNs after the first.
    None,
    /// Every member's arrival is known (some loaded rank waits on every other member: a mesh), or
    /// no loaded rank is held by anyone after the holder arrives.
    Known,
    /// Without plane tasks (Level0): the last loaded rank by start; whether a member outside the
    /// capture arrives later cannot be seen.
    Unverified,
    /// A loaded rank is held inside the op after the latest arrival the capture sees (its last
    /// blocked wait ends later, or, without plane tasks, its op lasts far longer than moving its
    /// data takes): a member it does not see (a ring shows only neighbours) arrives later, or a
    /// link is slow. The latest seen member is in the fields below.
    Unknown,
    /// The starts name a loaded holder, but on this mesh the loaded ranks that reached the op
    /// before it were not held by it (their first waits on it end at once): the ranks' clocks
    /// disagree, and who holds the op cannot be told (heldRank: such a rank).
    Contradicted,
  };
  Status status = Status::None;
  int groupRank = -1;     ///< the holder's rank in the group (-1 unknown)
  int rank = -1;          ///< RankProfile::rank() when loaded (-1 also for a rank without an id), else -1
  std::size_t index = 0;  ///< into Collective::ranks when loaded
  TimeNs arrival = 0;     ///< corrected start (loaded) or OutsideArrival::arrival, ns
  /// arrival - the last loaded rank's corrected start: how much later than every loaded rank the
  /// holder arrives (0 for a loaded holder), ns.
  TimeNs afterLastLoaded = 0;
  /// arrival - the next latest known member's arrival: what the holder's lateness alone costs, ns.
  TimeNs margin = 0;
  /// That next latest member: a loaded rank (RankProfile::rank(), else -1) or, outside the
  /// capture, its group rank (beforeRank -1) when a blocked first wait tells its arrival; both -1
  /// when there is none or it is known only by an upper bound (an unblocked first wait).
  int beforeRank = -1;
  int beforeGroupRank = -1;
  /// Unknown: how long after `arrival` a loaded rank is still held (its last blocked wait end;
  /// without plane tasks, how much longer its op lasts than `expected`), ns. Contradicted: how
  /// long before `arrival` heldRank's first wait on the holder ends, ns.
  TimeNs heldAfter = 0;
  /// Unknown without plane tasks: how long the op would take at the rank's best rate, ns (0 else).
  TimeNs expected = 0;
  int heldRank = -1;      ///< Unknown or Contradicted: that loaded rank (RankProfile::rank())
  /// Members outside the capture arriving within kLateRankMinSkewNs of a loaded holder: the data
  /// cannot tell which of them is last (a loaded holder is named then, as the one to look at).
  std::vector<int> arriveWith;
  bool inCapture = false;  ///< the holder is a loaded rank (its `rank` may still be -1: no rank id)
  [[nodiscard]] bool loaded() const { return inCapture; }
};

/// One op instance matched across ranks: the same group, type and sequence on each rank.
struct Collective {
  std::string name;            ///< the op name of the first rank holding it (no @group)
  std::string type;            ///< "allReduce"
  std::string group;           ///< the first rank's groupKey
  std::size_t sequence = 0;    ///< index among the group's ops of this type
  long long step = -1;         ///< the first rank's step holding the op start (-1: none)
  std::vector<CollectiveRank> ranks;  ///< in Profile::ranks order
  /// RankProfile::rank() of the holder when it is a loaded rank (Holder::Known or Unverified) at
  /// least kLateRankMinSkewNs after the first loaded rank, else -1.
  int lateRank = -1;
  /// The index in `ranks` of the last loaded rank to start (valid with two or more ranks).
  std::size_t lateIndex = 0;
  Holder holder;               ///< who the others wait for (docs/diagnosis.md §5.4)
  /// The group ranks not captured whose arrival the loaded ranks' first waits tell, by group rank.
  std::vector<OutsideArrival> outside;
  TimeNs maxSkew = 0;          ///< the largest skew of the loaded ranks, ns
  /// What the loaded ranks lose waiting for the holder (Known or Unverified): the sum over those
  /// that arrive at least kLateRankMinSkewNs before it of (its arrival - theirs), ns; 0 otherwise.
  TimeNs lost = 0;
  /// Holder::Unknown: what the loaded ranks lose at least, the same sum taken to the latest
  /// arrival the capture sees (the member that holds it arrives then or later), ns; 0 otherwise.
  TimeNs lostAtLeast = 0;
  /// Other loaded ranks about as late as a loaded holder (skew >= kLateRankMinSkewNs and within
  /// it of the holder's), RankProfile::rank() ascending: they arrive together last.
  std::vector<int> alsoLate;
  /// Peers of the op (group ranks) that no loaded rank is: the group is wider than the capture.
  std::vector<int> uncaptured;
};

/// How a finding names an HCCL group key (Collective::group): "HCCL group 586" when it is the
/// digits of the op names, else "the HCCL group on lane “Communication Kernel”" (a lane name: the
/// ops carry no group digits, as MindSpore's msprof timelines write them).
[[nodiscard]] std::string hcclGroupName(const std::string& group);

/// The transfers per (self, peer, transport) summed over `ops` (CommOp::peerLinks), sorted by
/// peer then transport.
[[nodiscard]] std::vector<CommPeerLink> peerLinksOf(const std::vector<CommOp>& ops);

/// The transfers per transport summed over `ops` (CommOp::links), by name, then "SDMA" (the sum
/// of the non-RDMA links): the device's CommBreakdown::links.
[[nodiscard]] std::vector<CommLink> linksOf(const std::vector<CommOp>& ops);

/// A link below this share of its nominal bandwidth is slow (HcclAnalysisTool BANDWIDTH_THRESHOLD,
/// msprof-analyze bandwidth_contention.yaml threshold).
inline constexpr double kSlowLinkShare = 0.8;

/// The slowest link of the profile: the (rank, peer, transport) with the lowest share of its
/// nominal bandwidth over the ranks' first devices, among links with a nominal and at least
/// kSlowLinkMinBytes moved. `rankIndex` into Profile::ranks; null link when none.
struct SlowLink {
  std::size_t rankIndex = 0;
  int rank = -1;
  CommPeerLink link;
  bool found = false;
  double share = 0;  ///< link.nominalShare(chip): of the rank's chip's nominal
  std::string chip;  ///< the rank's chip (RankSummary::chip), "" unknown
};
inline constexpr std::uint64_t kSlowLinkMinBytes = 1'000'000;  ///< 1 MB: smaller totals are latency, not bandwidth
[[nodiscard]] SlowLink slowestLink(const RankSummaries& ranks);

/// The clock offset of one rank against the reference rank (the first with collectives), from
/// the op ends (a collective ends at nearly the same moment on every rank; docs/diagnosis.md §5.4).
struct RankClock {
  std::size_t rankIndex = 0;
  int rank = -1;
  /// Median of (op end - the same op's end on the rank it was reached from: the reference for
  /// every rank sharing a collective with it), ns.
  TimeNs estimate = 0;
  std::size_t samples = 0;     ///< collectives the median is over
  /// The estimate is applied: at least kClockMinSamples samples, all of one sign, and |estimate|
  /// >= kLateRankMinSkewNs. Otherwise the ends are consistent with one shared clock (both signs:
  /// the ranks finish in either order) or too few to tell, and the offset is 0.
  bool applied = false;
  /// The offset used, ns: the rank it was reached from's offset, plus the estimate when applied
  /// (for a rank sharing a collective with the reference: the estimate when applied, else 0).
  TimeNs offset = 0;
};

/// Fewest collectives shared with the reference rank for a clock offset to be applied.
inline constexpr std::size_t kClockMinSamples = 3;

/// What one rank caused and lost across the collectives.
struct RankCollectiveTotals {
  std::size_t rankIndex = 0;
  int rank = -1;
  std::size_t lateCount = 0;   ///< collectives it was late to (as the late rank or one of alsoLate)
  TimeNs caused = 0;           ///< sum of `lost` of the collectives it is the late rank of: what the others waited for it, ns
  TimeNs waited = 0;           ///< what it waited for the holders, loaded or not (its share of their `lost`), ns
};

/// What one group rank outside the capture caused as the holder of collectives.
struct OutsideHolderTotals {
  std::string group;           ///< Collective::group
  int groupRank = -1;
  std::size_t count = 0;       ///< collectives it holds (Holder::Known)
  TimeNs caused = 0;           ///< sum of their `lost`, ns
  std::size_t worst = 0;       ///< index into ClusterComm::collectives of the one with the largest `lost`
  TimeNs worstLost = 0;        ///< that collective's `lost`, ns
};

/// The cross-rank communication analysis of a profile.
struct ClusterComm {
  std::vector<Collective> collectives;   ///< in the first rank's start order
  std::vector<RankClock> clocks;         ///< one per rank with collectives
  std::vector<RankCollectiveTotals> totals;  ///< one per rank with collectives
  /// One per (group, group rank) outside the capture holding a collective, most `caused` first.
  std::vector<OutsideHolderTotals> outsideHolders;
  std::vector<std::string> notes;        ///< ranks without ops, groups paired by order, ...
  /// The collective with the largest `lost` whose holder is a loaded rank (null when none).
  [[nodiscard]] const Collective* worst() const;
};

/// Matches the ops of every rank's first device (RankSummary::ops) across ranks
/// (docs/diagnosis.md §5.4): group by groupKey (else by group lane order), then type and sequence;
/// a group the reference rank does not hold is matched among the ranks that do (a cluster's
/// groups); each rank's clock offset = the median over its collectives shared with the rank it
/// is reached from (the reference first, breadth first) of the difference of the op ends
/// (collectives end together on every rank); the holder of
/// each (findHolder), what the loaded ranks lose to it, and the late rank when the holder is
/// loaded. Needs 2 ranks with ops; otherwise the result has no collective (and a note).
/// Point-to-point ops (isP2pType) are left out, and a group is paired by order only when this
/// rank's group rank is not already taken there (two holders of one group rank are two different
/// groups). CollectiveRank::rankIndex indexes `ranks`. Never throws.
[[nodiscard]] ClusterComm matchCollectives(const RankSummaries& ranks);
/// The same over the loaded ranks of `profile` (summarizeRank of each): for tests and tools.
[[nodiscard]] ClusterComm matchCollectives(const Profile& profile);

/// A point-to-point op type ("send", "receive", "batchSendRecv": communication.json's p2p ops,
/// format notes §5.2, case-insensitive), which matchCollectives leaves out.
[[nodiscard]] bool isP2pType(std::string_view type);

/// The op of `r` in `profile`'s rank analyses, with its slices on the rank's timeline (null when
/// the profile no longer holds it, or the rank was read from a summary).
[[nodiscard]] const CommOp* collectiveOp(const Profile& profile, const CollectiveRank& r);
/// The op of `r` in the stage's ranks (null when out of range).
[[nodiscard]] const CommOp* collectiveOp(const RankSummaries& ranks, const CollectiveRank& r);

/// Who holds `c`, in a word (docs/diagnosis.md §5.4 "The holder"): "rank 1", "group rank 5 (not
/// captured)", "rank 1?" (unverified: no plane tasks), "unknown", or "—" (no member arrives 50 us
/// after the first). Translated (i18n).
[[nodiscard]] std::string holderLabel(const Collective& c);

/// "allReduce #0 (hcom_allReduce__586_0_1)": the collective's type, sequence and name.
[[nodiscard]] std::string collectiveLabel(const Collective& c);

}  // namespace npuscope::core
