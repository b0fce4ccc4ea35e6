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

  /**
   * A broker's addresses and its partitions' states.
   *
   * @param internalPort the Raft transport's port
   */
  public record BrokerState(
      int nodeId, String host, int commandPort, int internalPort, List<PartitionState> partitions) {
    public BrokerState {
      partitions = List.copyOf(partitions);
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
      return out.done();
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
      return of(new BrokerState(nodeId, host, commandPort, internalPort, partitions));
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
