package io.tern.raft;

/**
 * A member of a Raft group. A higher priority wins elections first; the member with the highest
 * priority is the partition's primary.
 */
public record Member(int id, int priority) {}
