package io.tern.raft;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The configuration of a Raft group: its voters, which elect leaders and count toward the commit
 * quorum, and its learners, which receive the log and snapshots like followers but never vote,
 * never campaign and never count for commit (a new member catches up as a learner before it is
 * promoted). Immutable; members are kept sorted by id so that equal configurations are equal
 * records and encode to the same bytes.
 *
 * <p>A configuration is carried by {@link RaftEntry.Type#CONFIG} entries (in force on a member as
 * soon as the member appends one, committed or not, as Raft requires) and by snapshots ({@link
 * SnapshotMeta#membership()}: the configuration as of the snapshot's index). Changes are made one
 * member at a time by {@link ConfigChange}: see docs/raft.md, "Membership changes".
 */
public record Membership(List<Member> voters, List<Member> learners) {
  /**
   * The most members (voters and learners) of one group. A bound for the encoded size and the
   * per-member arrays of the core; replication factors are single digits.
   */
  public static final int MAX_MEMBERS = 64;

  /** The longest {@link #encode()} result: version, two counts, id and priority per member. */
  public static final int MAX_ENCODED_BYTES =
      1 + 2 * Integer.BYTES + MAX_MEMBERS * 2 * Integer.BYTES;

  /** The first byte of an encoded configuration: the encoding's version. */
  private static final byte ENCODING_VERSION = 1;

  public Membership {
    voters = sorted(voters);
    learners = sorted(learners);
    if (voters.isEmpty()) {
      throw new IllegalArgumentException("raft: a configuration needs at least one voter");
    }
    if (voters.size() + learners.size() > MAX_MEMBERS) {
      throw new IllegalArgumentException(
          "raft: at most " + MAX_MEMBERS + " members, got " + voters + " and " + learners);
    }
    List<Integer> ids = new ArrayList<>();
    voters.forEach(m -> ids.add(m.id()));
    learners.forEach(m -> ids.add(m.id()));
    if (ids.stream().distinct().count() != ids.size()) {
      throw new IllegalArgumentException(
          "raft: a member is listed twice in voters " + voters + " and learners " + learners);
    }
  }

  /** A configuration of voters only: how every group starts. */
  public static Membership ofVoters(List<Member> voters) {
    return new Membership(voters, List.of());
  }

  private static List<Member> sorted(List<Member> members) {
    return members.stream().sorted(Comparator.comparingInt(Member::id)).toList();
  }

  public boolean isVoter(int id) {
    return find(voters, id) != null;
  }

  public boolean isLearner(int id) {
    return find(learners, id) != null;
  }

  public boolean contains(int id) {
    return isVoter(id) || isLearner(id);
  }

  /** The member with {@code id}, voter or learner, or null. */
  public Member member(int id) {
    Member voter = find(voters, id);
    return voter != null ? voter : find(learners, id);
  }

  private static Member find(List<Member> members, int id) {
    for (Member member : members) {
      if (member.id() == id) {
        return member;
      }
    }
    return null;
  }

  /** Votes (or matching logs) needed: a majority of the voters. */
  public int quorum() {
    return voters.size() / 2 + 1;
  }

  /** Every member but {@code self}, voters and learners, by id: whom a leader replicates to. */
  public int[] peersOf(int self) {
    return java.util.stream.Stream.concat(voters.stream(), learners.stream())
        .mapToInt(Member::id)
        .filter(id -> id != self)
        .sorted()
        .toArray();
  }

  /** The voters but {@code self}, by id: whom a candidate asks for votes. */
  public int[] votersBut(int self) {
    return voters.stream().mapToInt(Member::id).filter(id -> id != self).toArray();
  }

  /**
   * This configuration with {@code change} made, or an explanation of why it cannot be: adding a
   * member that is in the group already, promoting one that is not a learner, removing one that is
   * not a member or the last voter, setting the priority of a non-member or one it has already.
   */
  public Membership apply(ConfigChange change) {
    Member member = change.member();
    List<Member> newVoters = new ArrayList<>(voters);
    List<Member> newLearners = new ArrayList<>(learners);
    switch (change.kind()) {
      case ADD_LEARNER -> {
        if (contains(member.id())) {
          throw new IllegalArgumentException("raft: " + member.id() + " is a member already");
        }
        newLearners.add(member);
      }
      case PROMOTE -> {
        Member learner = find(learners, member.id());
        if (learner == null) {
          throw new IllegalArgumentException("raft: " + member.id() + " is not a learner");
        }
        newLearners.remove(learner);
        newVoters.add(learner);
      }
      case REMOVE -> {
        if (!contains(member.id())) {
          throw new IllegalArgumentException("raft: " + member.id() + " is not a member");
        }
        if (isVoter(member.id()) && voters.size() == 1) {
          throw new IllegalArgumentException("raft: cannot remove the last voter " + member.id());
        }
        newVoters.removeIf(m -> m.id() == member.id());
        newLearners.removeIf(m -> m.id() == member.id());
      }
      case SET_PRIORITY -> {
        Member now = member(member.id());
        if (now == null) {
          throw new IllegalArgumentException("raft: " + member.id() + " is not a member");
        }
        if (now.priority() == member.priority()) {
          // Refused rather than appended: every configuration entry changes something, which is
          // what the one-change-at-a-time checks count.
          throw new IllegalArgumentException(
              "raft: " + member.id() + " has priority " + member.priority() + " already");
        }
        List<Member> holding = isVoter(member.id()) ? newVoters : newLearners;
        holding.replaceAll(m -> m.id() == member.id() ? member : m);
      }
    }
    return new Membership(newVoters, newLearners);
  }

  /** The data of a {@link RaftEntry.Type#CONFIG} entry (and of a snapshot's configuration). */
  public byte[] encode() {
    ByteBuffer buffer = ByteBuffer.allocate(encodedLength());
    buffer.put(ENCODING_VERSION);
    putMembers(buffer, voters);
    putMembers(buffer, learners);
    return buffer.array();
  }

  private int encodedLength() {
    return 1 + 2 * Integer.BYTES + (voters.size() + learners.size()) * 2 * Integer.BYTES;
  }

  private static void putMembers(ByteBuffer buffer, List<Member> members) {
    buffer.putInt(members.size());
    for (Member member : members) {
      buffer.putInt(member.id()).putInt(member.priority());
    }
  }

  /** Reads what {@link #encode()} wrote; an error names what is wrong with the bytes. */
  public static Membership decode(byte[] data) {
    try {
      ByteBuffer buffer = ByteBuffer.wrap(data);
      byte version = buffer.get();
      if (version != ENCODING_VERSION) {
        throw new IllegalArgumentException(
            "raft: unknown configuration encoding version " + version);
      }
      List<Member> voters = getMembers(buffer);
      List<Member> learners = getMembers(buffer);
      if (buffer.hasRemaining()) {
        throw new IllegalArgumentException(
            "raft: " + buffer.remaining() + " bytes after an encoded configuration");
      }
      return new Membership(voters, learners);
    } catch (BufferUnderflowException e) {
      throw new IllegalArgumentException(
          "raft: truncated configuration (" + data.length + " bytes)", e);
    }
  }

  private static List<Member> getMembers(ByteBuffer buffer) {
    int count = buffer.getInt();
    if (count < 0 || count > MAX_MEMBERS) {
      throw new IllegalArgumentException("raft: configuration lists " + count + " members");
    }
    List<Member> members = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      members.add(new Member(buffer.getInt(), buffer.getInt()));
    }
    return members;
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("voters ");
    voters.forEach(m -> text.append(m.id()).append(' '));
    if (!learners.isEmpty()) {
      text.append("learners ");
      learners.forEach(m -> text.append(m.id()).append(' '));
    }
    return text.toString().trim();
  }
}
