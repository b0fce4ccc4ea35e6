package io.tern.engine.exporter;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.ExporterIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbBytes;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exporters' positions in a partition's state: one entry per exporter id, holding the position
 * it acknowledged and its metadata. Changed only by the {@code EXPORTER POSITION_UPDATED} event (so
 * replay rebuilds it on every member and snapshots carry it); the {@code UPDATE_POSITION} command,
 * written by the leader's exporter director, becomes that event unless it would move the position
 * back (a command of an earlier leader that arrives late).
 *
 * <p>{@link Published} is what other threads read: the positions as last applied, for the log's
 * compaction bound.
 */
public final class ExporterPositions {
  /** Column family ids below 16 belong to the platform (0 is the processor's). */
  static final short COLUMN_FAMILY_ID = 1;

  /** A position and metadata as stored. */
  public record Stored(long position, byte[] metadata) {}

  /** The positions as last applied on this member, readable from any thread. */
  public static final class Published {
    private final Map<String, Long> positions = new ConcurrentHashMap<>();

    /** The stored position of {@code exporterId}, or null if none is stored. */
    public Long position(String exporterId) {
      return positions.get(exporterId);
    }

    void replaceAll(Map<String, Stored> stored) {
      positions.keySet().retainAll(stored.keySet());
      stored.forEach((id, value) -> positions.put(id, value.position()));
    }

    void put(String exporterId, long position) {
      positions.put(exporterId, position);
    }
  }

  private final ColumnFamily<DbString, DbBytes> family;
  private final Published published;
  private final DbString key = new DbString();
  private final DbBytes value = new DbBytes();

  private ExporterPositions(PartitionState state, Published published) {
    this.family = state.columnFamily(COLUMN_FAMILY_ID, new DbString(), new DbBytes());
    this.published = published;
  }

  /**
   * Registers the {@code EXPORTER} command's processor and its event's applier on {@code
   * processors}, over {@code state} (freshly opened or recovered), and publishes the positions the
   * state holds now to {@code published}.
   */
  public static RecordProcessors register(
      RecordProcessors processors, PartitionState state, Published published) {
    ExporterPositions positions = new ExporterPositions(state, published);
    published.replaceAll(positions.all());
    return processors
        .onCommand(ExporterIntent.UPDATE_POSITION, positions::update)
        .onEvent(ExporterIntent.POSITION_UPDATED, positions::updated);
  }

  /** Every stored position, by exporter id, read through a view that claims no column family. */
  public static Map<String, Stored> readAll(PartitionState state) {
    return all(state.readView(COLUMN_FAMILY_ID, new DbString(), new DbBytes()));
  }

  private Map<String, Stored> all() {
    return all(family);
  }

  private static Map<String, Stored> all(ColumnFamily<DbString, DbBytes> family) {
    Map<String, Stored> all = new TreeMap<>();
    family.forEach(
        (id, bytes) -> {
          all.put(id.get(), decode(bytes.toArray()));
          return true;
        });
    return all;
  }

  private void update(LoggedRecord command, ProcessingResult result) {
    ExporterPositionValue update;
    try {
      update = ExporterPositionValue.read(command.value(), 0, command.value().capacity());
    } catch (IllegalArgumentException e) {
      result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
      return;
    }
    key.set(update.exporterId());
    if (family.get(key, value) && decode(value.toArray()).position() > update.position()) {
      result.reject(
          RejectionType.INVALID_STATE,
          "exporter "
              + update.exporterId()
              + " is at a later position than "
              + update.position()
              + " already");
      return;
    }
    result.appendEvent(command.key(), ExporterIntent.POSITION_UPDATED, update);
  }

  private void updated(LoggedRecord event) {
    ExporterPositionValue update =
        ExporterPositionValue.read(event.value(), 0, event.value().capacity());
    key.set(update.exporterId());
    family.put(key, value.set(encode(update.position(), update.metadata())));
    published.put(update.exporterId(), update.position());
  }

  private static byte[] encode(long position, byte[] metadata) {
    return ByteBuffer.allocate(Long.BYTES + metadata.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .putLong(position)
        .put(metadata)
        .array();
  }

  private static Stored decode(byte[] bytes) {
    long position = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
    return new Stored(position, Arrays.copyOfRange(bytes, Long.BYTES, bytes.length));
  }
}
