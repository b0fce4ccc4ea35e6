package io.tern.raft;

import java.util.List;

/**
 * What the driver must do after feeding the core, in this order: persist {@code hardState} durably
 * (if not null) before sending any of {@code messages}; make the log durable up to {@code
 * persistUpTo} according to the flush mode and report it with {@link RaftNode#onPersisted(long)};
 * if {@code installedSnapshot} is not null, load it into the state machine (entries up to its index
 * are not in the log any more); apply entries up to {@code commitIndex}.
 *
 * @param hardState new term/vote, or null if unchanged
 * @param messages to send once the hard state is durable
 * @param persistUpTo last appended index the core still waits to hear is persisted, or -1
 * @param commitIndex the commit index (apply everything up to it)
 * @param term the current term
 * @param role the role now
 * @param leaderId the known leader, or -1
 * @param installedSnapshot a snapshot received from the leader and installed since the last ready,
 *     or null
 * @param membership the configuration in force on this member (the newest in its log)
 * @param configChangePending whether that configuration is not committed yet: while it is, a leader
 *     accepts no other change
 */
public record Ready(
    HardState hardState,
    List<RaftMessage> messages,
    long persistUpTo,
    long commitIndex,
    long term,
    RaftRole role,
    int leaderId,
    SnapshotMeta installedSnapshot,
    Membership membership,
    boolean configChangePending) {}
