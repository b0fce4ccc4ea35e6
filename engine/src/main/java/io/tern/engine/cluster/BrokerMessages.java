package io.tern.engine.cluster;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The messages of the {@link BrokerApi}: big-endian fields, strings and byte arrays prefixed by
 * their length, a version byte first so that a broker can refuse a message from a newer one.
 */
public final class BrokerMessages {
  static final byte VERSION = 1;

  private BrokerMessages() {}

  /** A command for a partition; {@code wantsAnswer} false for engine-to-engine commands. */
  record Execute(
      int partitionId, int valueType, int intent, long key, boolean wantsAnswer, byte[] value) {
    byte[] encode() {
      return new Writer()
          .i32(partitionId)
          .i32(valueType)
          .i32(intent)
          .i64(key)
          .bool(wantsAnswer)
          .bytes(value)
          .done();
    }

    static Execute decode(byte[] message) {
      Reader in = new Reader(message);
      return new Execute(in.i32(), in.i32(), in.i32(), in.i64(), in.bool(), in.bytes());
    }
  }

  /** A committed answer: {@code rejection} is the rejection type's code (0 for none). */
  record Answered(int intent, short rejection, String reason, long key, byte[] value) {
    byte[] encode() {
      return new Writer().i32(intent).i32(rejection).text(reason).i64(key).bytes(value).done();
    }

    static Answered decode(byte[] message) {
      Reader in = new Reader(message);
      return new Answered(in.i32(), (short) in.i32(), in.text(), in.i64(), in.bytes());
    }
  }

  /** A partition replica's state as its broker sees it. */
  public record PartitionState(int partitionId, boolean leader, long term, boolean healthy) {}

  /** Where a broker's command API listens. */
  public record BrokerAddress(int nodeId, String host, int commandPort) {}

  /**
   * A broker's addresses and its partitions' states.
   *
   * @param internalPort the Raft transport's port
   * @param known the other brokers this one is connected to: how a gateway or broker whose contact
   *     points do not name a broker added later learns where it is
   * @param topology the cluster topology as this broker has it (JSON, see
   *     io.tern.engine.scaling.Topology), "" while it has none: how a change reaches every broker
   *     and gateway
   */
  public record BrokerState(
      int nodeId,
      String host,
      int commandPort,
      int internalPort,
      List<PartitionState> partitions,
      List<BrokerAddress> known,
      String topology) {
    public BrokerState {
      partitions = List.copyOf(partitions);
      known = List.copyOf(known);
      topology = topology == null ? "" : topology;
    }

    public BrokerState(
        int nodeId,
        String host,
        int commandPort,
        int internalPort,
        List<PartitionState> partitions) {
      this(nodeId, host, commandPort, internalPort, partitions, List.of(), "");
    }
  }

  /**
   * Who subscribes: a broker names its command address (so that a broker added to the cluster
   * later, which only it knows of, becomes known to the brokers of its contact points); a gateway
   * names none (node id -1).
   */
  record Subscriber(int nodeId, String host, int commandPort) {
    byte[] encode() {
      return new Writer().i32(nodeId).text(host).i32(commandPort).done();
    }

    /** An older subscriber's request is the version byte alone: no one named. */
    static Subscriber decode(byte[] message) {
      Reader in = new Reader(message);
      if (!in.hasRemaining()) {
        return new Subscriber(-1, "", 0);
      }
      return new Subscriber(in.i32(), in.text(), in.i32());
    }
  }

  /**
   * A membership request for a partition's leader: {@link #QUERY} reads the configuration, the
   * others propose that change (see io.tern.raft.ConfigChange); {@code memberId} is a Raft member
   * id (node id + 1).
   */
  public record MembershipRequest(int partitionId, byte kind, int memberId, int priority) {
    public static final byte QUERY = 0;
    public static final byte ADD_LEARNER = 1;
    public static final byte PROMOTE = 2;
    public static final byte REMOVE = 3;

    /** Give the member {@code priority} (a broker that predates it answers INVALID). */
    public static final byte SET_PRIORITY = 4;

    byte[] encode() {
      return new Writer().i32(partitionId).i8(kind).i32(memberId).i32(priority).done();
    }

    static MembershipRequest decode(byte[] message) {
      Reader in = new Reader(message);
      return new MembershipRequest(in.i32(), in.i8(), in.i32(), in.i32());
    }
  }

  /**
   * The leader's answer: {@code status} is ConfigChange.Status's name for a change ("QUERIED" for a
   * query, "NOT_LEADER" when the broker asked does not lead), then its configuration, whether that
   * is uncommitted yet, how far {@code memberId} of the request matches its log (-1 unknown)
   * against its commit index, and each member's priority (member id to priority; empty from a
   * broker that predates it).
   */
  public record MembershipAnswer(
      String status,
      List<Integer> voters,
      List<Integer> learners,
      boolean pending,
      long memberMatchIndex,
      long commitIndex,
      Map<Integer, Integer> priorities) {
    public MembershipAnswer {
      voters = List.copyOf(voters);
      learners = List.copyOf(learners);
      priorities = Map.copyOf(priorities);
    }

    public static MembershipAnswer notLeader() {
      return new MembershipAnswer("NOT_LEADER", List.of(), List.of(), false, -1, -1, Map.of());
    }

    public boolean contains(int memberId) {
      return voters.contains(memberId) || learners.contains(memberId);
    }

    /** The priority of {@code memberId}, or null if not known. */
    public Integer priorityOf(int memberId) {
      return priorities.get(memberId);
    }

    byte[] encode() {
      Writer out = new Writer().text(status).i32(voters.size());
      voters.forEach(out::i32);
      out.i32(learners.size());
      learners.forEach(out::i32);
      out.bool(pending).i64(memberMatchIndex).i64(commitIndex);
      // Added after the commit index: a reader of the older layout stops before them.
      out.i32(priorities.size());
      new TreeMap<>(priorities).forEach((member, priority) -> out.i32(member).i32(priority));
      return out.done();
    }

    static MembershipAnswer decode(byte[] message) {
      Reader in = new Reader(message);
      String status = in.text();
      List<Integer> voters = new ArrayList<>();
      for (int i = in.count(); i > 0; i--) {
        voters.add(in.i32());
      }
      List<Integer> learners = new ArrayList<>();
      for (int i = in.count(); i > 0; i--) {
        learners.add(in.i32());
      }
      boolean pending = in.bool();
      long memberMatchIndex = in.i64();
      long commitIndex = in.i64();
      Map<Integer, Integer> priorities = new TreeMap<>();
      if (in.hasRemaining()) { // absent from an older broker's answer
        for (int i = in.count(); i > 0; i--) {
          priorities.put(in.i32(), in.i32());
        }
      }
      return new MembershipAnswer(
          status, voters, learners, pending, memberMatchIndex, commitIndex, priorities);
    }
  }

  /**
   * A request to {@code /actuator/cluster} that a broker forwards to the coordinating broker
   * (docs/scaling.md). The broker that received it checked the management token, which is not
   * forwarded: the coordinator takes these from brokers only, as membership requests.
   */
  public record ClusterRequest(
      String method, String path, Map<String, List<String>> query, String body) {
    public ClusterRequest {
      Map<String, List<String>> copy = new TreeMap<>();
      query.forEach((name, values) -> copy.put(name, List.copyOf(values)));
      query = java.util.Collections.unmodifiableMap(copy);
      body = body == null ? "" : body;
    }

    byte[] encode() {
      Writer out = new Writer().text(method).text(path).i32(query.size());
      query.forEach(
          (name, values) -> {
            out.text(name).i32(values.size());
            values.forEach(out::text);
          });
      return out.text(body).done();
    }

    static ClusterRequest decode(byte[] message) {
      Reader in = new Reader(message);
      String method = in.text();
      String path = in.text();
      Map<String, List<String>> query = new TreeMap<>();
      for (int i = in.count(); i > 0; i--) {
        String name = in.text();
        List<String> values = new ArrayList<>();
        for (int j = in.count(); j > 0; j--) {
          values.add(in.text());
        }
        query.put(name, values);
      }
      return new ClusterRequest(method, path, query, in.text());
    }
  }

  /** The coordinator's answer to a {@link ClusterRequest}: the HTTP status and JSON body. */
  public record ClusterAnswer(int status, String body) {
    byte[] encode() {
      return new Writer().i32(status).text(body).done();
    }

    static ClusterAnswer decode(byte[] message) {
      Reader in = new Reader(message);
      return new ClusterAnswer(in.i32(), in.text());
    }
  }

  /** What a subscription carries: a broker's state, or a notice that jobs of a type are ready. */
  record Event(BrokerState state, String jobsAvailable) {
    private static final byte STATE = 1;
    private static final byte JOBS_AVAILABLE = 2;

    static Event of(BrokerState state) {
      return new Event(state, null);
    }

    static Event jobsAvailable(String jobType) {
      return new Event(null, jobType);
    }

    byte[] encode() {
      Writer out = new Writer();
      if (state == null) {
        return out.i8(JOBS_AVAILABLE).text(jobsAvailable).done();
      }
      out.i8(STATE)
          .i32(state.nodeId())
          .text(state.host())
          .i32(state.commandPort())
          .i32(state.internalPort())
          .i32(state.partitions().size());
      for (PartitionState partition : state.partitions()) {
        out.i32(partition.partitionId())
            .bool(partition.leader())
            .i64(partition.term())
            .bool(partition.healthy());
      }
      // Added after the partitions: a reader of the older layout stops before them.
      out.i32(state.known().size());
      for (BrokerAddress address : state.known()) {
        out.i32(address.nodeId()).text(address.host()).i32(address.commandPort());
      }
      return out.text(state.topology()).done();
    }

    static Event decode(byte[] message) {
      Reader in = new Reader(message);
      byte kind = in.i8();
      if (kind == JOBS_AVAILABLE) {
        return jobsAvailable(in.text());
      }
      if (kind != STATE) {
        throw new IllegalArgumentException("unknown broker event kind " + kind);
      }
      int nodeId = in.i32();
      String host = in.text();
      int commandPort = in.i32();
      int internalPort = in.i32();
      int count = in.count();
      List<PartitionState> partitions = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        partitions.add(new PartitionState(in.i32(), in.bool(), in.i64(), in.bool()));
      }
      List<BrokerAddress> known = new ArrayList<>();
      String topology = "";
      if (in.hasRemaining()) { // absent from an older broker's state
        for (int i = in.count(); i > 0; i--) {
          known.add(new BrokerAddress(in.i32(), in.text(), in.i32()));
        }
        topology = in.text();
      }
      return of(
          new BrokerState(nodeId, host, commandPort, internalPort, partitions, known, topology));
    }
  }

  /** A gateway's job stream, as its client opened it. */
  record JobStreamRequest(String type, String worker, long timeoutMs, List<String> fetchVariables) {
    byte[] encode() {
      Writer out = new Writer().text(type).text(worker).i64(timeoutMs).i32(fetchVariables.size());
      fetchVariables.forEach(out::text);
      return out.done();
    }

    static JobStreamRequest decode(byte[] message) {
      Reader in = new Reader(message);
      String type = in.text();
      String worker = in.text();
      long timeoutMs = in.i64();
      int count = in.count();
      List<String> fetch = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        fetch.add(in.text());
      }
      return new JobStreamRequest(type, worker, timeoutMs, fetch);
    }
  }

  /** A job activated for a stream: its key and its value as the engine encodes it. */
  record PushedJob(long jobKey, byte[] value) {
    byte[] encode() {
      return new Writer().i64(jobKey).bytes(value).done();
    }

    static PushedJob decode(byte[] message) {
      Reader in = new Reader(message);
      return new PushedJob(in.i64(), in.bytes());
    }
  }

  /** Rebalancing's outcome: partition id to what happened to it. */
  static byte[] outcomes(Map<Integer, String> outcomes) {
    Writer out = new Writer().i32(outcomes.size());
    outcomes.forEach((partitionId, outcome) -> out.i32(partitionId).text(outcome));
    return out.done();
  }

  static Map<Integer, String> outcomes(byte[] message) {
    Reader in = new Reader(message);
    int count = in.count();
    Map<Integer, String> outcomes = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      outcomes.put(in.i32(), in.text());
    }
    return outcomes;
  }

  /** A plain text. */
  static byte[] text(String text) {
    return new Writer().text(text).done();
  }

  static String text(byte[] message) {
    return new Reader(message).text();
  }

  private static final class Writer {
    private byte[] bytes = new byte[64];
    private int length;

    Writer() {
      i8(VERSION);
    }

    private ByteBuffer room(int needed) {
      if (length + needed > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + needed));
      }
      ByteBuffer buffer = ByteBuffer.wrap(bytes, length, needed);
      length += needed;
      return buffer;
    }

    Writer i8(byte value) {
      room(1).put(value);
      return this;
    }

    Writer bool(boolean value) {
      return i8(value ? (byte) 1 : (byte) 0);
    }

    Writer i32(int value) {
      room(4).putInt(value);
      return this;
    }

    Writer i64(long value) {
      room(8).putLong(value);
      return this;
    }

    Writer bytes(byte[] value) {
      i32(value.length);
      room(value.length).put(value);
      return this;
    }

    Writer text(String value) {
      return bytes(value.getBytes(StandardCharsets.UTF_8));
    }

    byte[] done() {
      return Arrays.copyOf(bytes, length);
    }
  }

  private static final class Reader {
    private final ByteBuffer buffer;

    Reader(byte[] message) {
      this.buffer = ByteBuffer.wrap(message);
      byte version = i8();
      if (version != VERSION) {
        throw new IllegalArgumentException(
            "broker message of version " + version + "; this broker reads version " + VERSION);
      }
    }

    boolean hasRemaining() {
      return buffer.hasRemaining();
    }

    byte i8() {
      try {
        return buffer.get();
      } catch (BufferUnderflowException e) {
        throw truncated();
      }
    }

    boolean bool() {
      return i8() != 0;
    }

    int i32() {
      try {
        return buffer.getInt();
      } catch (BufferUnderflowException e) {
        throw truncated();
      }
    }

    long i64() {
      try {
        return buffer.getLong();
      } catch (BufferUnderflowException e) {
        throw truncated();
      }
    }

    int count() {
      int count = i32();
      if (count < 0 || count > buffer.remaining()) {
        throw truncated();
      }
      return count;
    }

    byte[] bytes() {
      byte[] value = new byte[count()];
      buffer.get(value);
      return value;
    }

    String text() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    private IllegalArgumentException truncated() {
      return new IllegalArgumentException("truncated broker message");
    }
  }
}
