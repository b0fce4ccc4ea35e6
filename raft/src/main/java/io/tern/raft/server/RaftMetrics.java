package io.tern.raft.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tern.raft.RaftNode;
import io.tern.raft.RaftRole;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One partition's Raft metrics. Latencies are timers with percentile histograms (Prometheus
 * computes quantiles across brokers); state is gauges over values the Raft thread publishes. The
 * journal under the partition exports its own append and flush latency (tern.journal.*) with the
 * same tags.
 */
final class RaftMetrics {
  private final Timer commitLatency;
  private final Timer appendLatency;
  private final Counter elections;
  private final Counter leaderChanges;
  private final Counter proposalsRefused;
  private final Counter inboundDropped;
  private final Timer snapshotInstallDuration;
  private final DistributionSummary snapshotInstallBytes;
  private final int[] peers;
  private final AtomicLongArray followerLag;

  RaftMetrics(MeterRegistry registry, Tags tags, RaftPartition partition, int[] peers) {
    commitLatency =
        timer("tern.raft.commit.latency", "proposal to commit, on the leader", registry, tags);
    appendLatency =
        timer(
            "tern.raft.append.latency",
            "handling one append request on a follower (write to the journal)",
            registry,
            tags);
    elections =
        Counter.builder("tern.raft.elections")
            .description("elections this member started (as candidate)")
            .tags(tags)
            .register(registry);
    leaderChanges =
        Counter.builder("tern.raft.leader.changes")
            .description("times the known leader changed")
            .tags(tags)
            .register(registry);
    proposalsRefused =
        Counter.builder("tern.raft.proposals.refused")
            .description("proposals refused because the queue to the Raft thread was full")
            .tags(tags)
            .register(registry);
    inboundDropped =
        Counter.builder("tern.raft.messages.dropped")
            .description("inbound messages dropped because the Raft thread's queue was full")
            .tags(tags)
            .register(registry);
    snapshotInstallDuration =
        Timer.builder("tern.raft.snapshot.install.duration")
            .description("first chunk received to snapshot installed, on a follower")
            .tags(tags)
            .register(registry);
    snapshotInstallBytes =
        DistributionSummary.builder("tern.raft.snapshot.install.bytes")
            .baseUnit("bytes")
            .description("size of snapshots installed from the leader")
            .tags(tags)
            .register(registry);
    Gauge.builder("tern.raft.snapshot.corrupt", partition, p -> p.latestSnapshotIsCorrupt() ? 1 : 0)
        .description(
            "1 if a file of the latest snapshot failed its CRC while being sent (it is not sent"
                + " until a newer snapshot is taken), else 0")
        .tags(tags)
        .register(registry);
    Gauge.builder("tern.raft.term", partition, RaftPartition::term).tags(tags).register(registry);
    Gauge.builder("tern.raft.role", partition, p -> roleValue(p.role()))
        .description("0 follower, 1 pre-candidate, 2 candidate, 3 leader")
        .tags(tags)
        .register(registry);
    Gauge.builder("tern.raft.commit.index", partition, RaftPartition::commitIndex)
        .tags(tags)
        .register(registry);
    Gauge.builder("tern.raft.last.index", partition, RaftPartition::lastIndex)
        .tags(tags)
        .register(registry);
    this.peers = peers;
    followerLag = new AtomicLongArray(peers.length);
    for (int i = 0; i < peers.length; i++) {
      int slot = i;
      Gauge.builder("tern.raft.replication.lag", followerLag, lag -> lag.get(slot))
          .description("entries the follower lacks, as the leader sees it (0 when not leading)")
          .tags(tags.and("follower", Integer.toString(peers[i])))
          .baseUnit("entries")
          .register(registry);
    }
  }

  private static Timer timer(String name, String description, MeterRegistry registry, Tags tags) {
    return Timer.builder(name)
        .description(description)
        .tags(tags)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(10_000))
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry);
  }

  private static double roleValue(RaftRole role) {
    return switch (role) {
      case FOLLOWER -> 0;
      case PRE_CANDIDATE -> 1;
      case CANDIDATE -> 2;
      case LEADER -> 3;
    };
  }

  void committed(long proposedAtNs, long nowNs) {
    commitLatency.record(nowNs - proposedAtNs, TimeUnit.NANOSECONDS);
  }

  void appended(long durationNs) {
    appendLatency.record(durationNs, TimeUnit.NANOSECONDS);
  }

  void electionStarted() {
    elections.increment();
  }

  void leaderChanged() {
    leaderChanges.increment();
  }

  void proposalRefused() {
    proposalsRefused.increment();
  }

  void inboundDropped() {
    inboundDropped.increment();
  }

  void snapshotInstalled(long durationNs, long bytes) {
    snapshotInstallDuration.record(durationNs, TimeUnit.NANOSECONDS);
    snapshotInstallBytes.record(bytes);
  }

  /** Publishes how many entries each follower lacks, as {@code node} sees it. */
  void followerLag(RaftNode node) {
    long last = node.lastIndex();
    for (int i = 0; i < peers.length; i++) {
      long match = node.matchIndex(peers[i]);
      followerLag.set(i, match < 0 ? 0 : last - match);
    }
  }
}
