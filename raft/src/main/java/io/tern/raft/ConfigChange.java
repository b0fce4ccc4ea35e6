package io.tern.raft;

/**
 * One single-member change of a group's configuration (see {@link Membership}). A new member joins
 * in two steps, {@link Kind#ADD_LEARNER} then, once it holds every committed entry, {@link
 * Kind#PROMOTE}; a replacement is an add, a promote and a {@link Kind#REMOVE}, one at a time.
 * {@link Kind#SET_PRIORITY} changes a member's priority only.
 */
public record ConfigChange(Kind kind, Member member) {
  public enum Kind {
    /** Add a member that receives the log but neither votes nor counts for commit. */
    ADD_LEARNER,
    /** Make a learner a voter; the leader accepts only once the learner caught up. */
    PROMOTE,
    /** Remove a voter or a learner. A leader removes itself only after handing leadership on. */
    REMOVE,
    /**
     * Give a member another priority (election order and the primary that rebalancing moves
     * leadership to). Changes no quorum, but goes through the log like the others, one at a time,
     * so that every member ranks the group the same way at the same index.
     */
    SET_PRIORITY
  }

  public static ConfigChange addLearner(Member member) {
    return new ConfigChange(Kind.ADD_LEARNER, member);
  }

  public static ConfigChange promote(int id) {
    return new ConfigChange(Kind.PROMOTE, new Member(id, 0));
  }

  public static ConfigChange remove(int id) {
    return new ConfigChange(Kind.REMOVE, new Member(id, 0));
  }

  public static ConfigChange setPriority(int id, int priority) {
    return new ConfigChange(Kind.SET_PRIORITY, new Member(id, priority));
  }

  /**
   * What {@link RaftNode#proposeConfigChange} did: {@link Status#ACCEPTED} with the index of the
   * configuration entry, or why not (then {@code index} is -1).
   */
  public record Result(Status status, long index) {
    public boolean accepted() {
      return status == Status.ACCEPTED;
    }
  }

  public enum Status {
    /** Appended at {@code index}, and in force on the leader already. */
    ACCEPTED,
    /** Only the leader changes the configuration: ask the leader ({@link RaftNode#leaderId()}). */
    NOT_LEADER,
    /** The previous change is not committed yet: at most one is in flight. Retry later. */
    CHANGE_IN_FLIGHT,
    /**
     * The leader has not committed an entry of its term yet (its no-op): until it has, a change
     * appended by an earlier leader may still be uncommitted without it knowing. Retry shortly.
     */
    LEADER_NOT_READY,
    /** The learner to promote does not hold every committed entry yet. Retry once it caught up. */
    LEARNER_BEHIND,
    /**
     * The change removes the leader: leadership is being handed to another voter first (or is being
     * transferred already). Retry with the new leader.
     */
    TRANSFERRING_LEADERSHIP,
    /** The change does not fit the configuration (see {@link Membership#apply}). */
    INVALID
  }
}
