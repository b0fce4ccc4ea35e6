package io.tern.engine.broker;

import io.tern.raft.server.RaftServerConfig;
import io.tern.raft.transport.TransportConfig;
import io.tern.raft.transport.TransportTls;

/** A broker's settings as its Raft transport and Raft server take them. */
final class RaftSettings {
  private RaftSettings() {}

  /** Where member {@code memberId} listens for Raft and how ({@code tls}: null for plain TCP). */
  static TransportConfig transportConfig(BrokerConfig config, int memberId, TransportTls tls) {
    return TransportConfig.builder(memberId)
        .bind(config.host(), config.internalPort())
        .tls(tls)
        .build();
  }

  /** The Raft server's settings: timing, flush mode, threads and journal. */
  static RaftServerConfig raftServerConfig(BrokerConfig config) {
    return RaftServerConfig.builder(config.dataDirectory().resolve("raft"))
        .electionTimeoutMs(config.electionTimeoutMs())
        .heartbeatIntervalMs(config.heartbeatIntervalMs())
        .flushMode(config.flushMode())
        .flushDelayMs(config.flushDelayMs())
        .maxInflightAppends(config.maxInflightAppends())
        .maxAppendBatchBytes(config.maxAppendBatchBytes())
        .preferSnapshotThresholdEntries(config.preferSnapshotReplicationThreshold())
        .raftThreads(config.raftThreads())
        .raftOnTransportThread(config.raftOnTransportThread())
        .flushThreads(config.flushThreads())
        .segmentSizeBytes(config.journalSegmentBytes())
        .journalMadvise(config.journalMadvise())
        .journalPreallocation(config.journalPreallocation())
        .build();
  }
}
