package io.tern.engine.backup;

import java.time.InstantSource;
import java.util.concurrent.Executor;

/**
 * What every partition led by this broker needs to take its part of a backup: the store, the
 * thread(s) that copy files to it, and what the manifest records of the cluster (its topology, to
 * be matched on restore).
 */
public record BackupContext(
    BackupStore store,
    Executor executor,
    int nodeId,
    int partitionsCount,
    int clusterSize,
    int replicationFactor,
    String brokerVersion,
    BackupMetrics metrics,
    InstantSource clock) {}
