package io.tern.raft.transport;

import io.tern.raft.RaftMessage;

/** A decoded message with the partition (Raft group) it belongs to. */
public record Envelope(int partitionId, RaftMessage message) {}
