package io.tern.engine.backup;

import java.time.InstantSource;
import java.util.concurrent.Executor;

/**
 * What every partition led by this broker needs to take its part of a backup: the store, the
 * thread(s) that copy files to it, and what the manifest records of the cluster (its topology, to
 * be matched on restore).
 *
 * @param announcements where a part's IN_PROGRESS manifest is written as soon as its checkpoint is
 *     committed: never queued behind another part's upload on {@code executor}, so that a backup
 *     whose other parts are done is not taken for INCOMPLETE while this one waits ({@link
 *     BackupStatus})
 */
public record BackupContext(
    BackupStore store,
    Executor announcements,
    Executor executor,
    int nodeId,
    int partitionsCount,
    int clusterSize,
    int replicationFactor,
    String brokerVersion,
    BackupMetrics metrics,
    InstantSource clock) {}
