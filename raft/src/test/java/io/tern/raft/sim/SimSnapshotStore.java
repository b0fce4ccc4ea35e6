package io.tern.raft.sim;

import io.tern.raft.SnapshotMeta;
import io.tern.raft.SnapshotStore;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * An in-memory snapshot store for the simulation: a snapshot is one file, "state", holding the
 * simulated state machine. Snapshots (taken or received) survive crashes; a snapshot being received
 * does not. Chunks are small so that a transfer spans many messages and can be disturbed midway.
 */
final class SimSnapshotStore implements SnapshotStore {
  static final String FILE = "state";
  private final int chunkBytes;
  private SnapshotMeta latest;
  private byte[] latestData;
  private SnapshotMeta receiving;
  private byte[] received;
  private int receivedLength;
  private boolean withhold;

  SimSnapshotStore(int chunkBytes) {
    this.chunkBytes = chunkBytes;
  }

  /** The state machine stores a snapshot it took. */
  SnapshotMeta put(long index, long term, byte[] data) {
    return put(index, term, data, null);
  }

  /** The same, recording the configuration in force at {@code index}. */
  SnapshotMeta put(long index, long term, byte[] data, io.tern.raft.Membership membership) {
    int chunks = Math.max(1, (data.length + chunkBytes - 1) / chunkBytes);
    latest = new SnapshotMeta(index, term, checksum(data, data.length), chunks, membership);
    latestData = data.clone();
    return latest;
  }

  byte[] latestData() {
    return latestData;
  }

  @Override
  public SnapshotMeta latest() {
    return latest;
  }

  /** Refuse to hand out chunks, as a store does whose latest snapshot it found damaged. */
  void withhold(boolean withhold) {
    this.withhold = withhold;
  }

  @Override
  public Chunk readChunk(SnapshotMeta meta, int chunkIndex) {
    if (!meta.equals(latest) || withhold) {
      return null;
    }
    int from = chunkIndex * chunkBytes;
    byte[] data =
        Arrays.copyOfRange(latestData, from, Math.min(latestData.length, from + chunkBytes));
    return new Chunk(FILE, from, data, (int) checksum(data, data.length));
  }

  @Override
  public void beginReceive(SnapshotMeta meta) {
    receiving = meta;
    received = new byte[meta.chunkCount() * chunkBytes];
    receivedLength = 0;
  }

  @Override
  public boolean writeChunk(SnapshotMeta meta, int chunkIndex, Chunk chunk) {
    if (!meta.equals(receiving)
        || chunk.fileOffset() != receivedLength
        || (int) checksum(chunk.data(), chunk.data().length) != chunk.crc32c()
        || receivedLength + chunk.data().length > received.length) {
      return false;
    }
    System.arraycopy(chunk.data(), 0, received, receivedLength, chunk.data().length);
    receivedLength += chunk.data().length;
    return true;
  }

  @Override
  public void abortReceive() {
    receiving = null;
    received = null;
  }

  /** The snapshot being received, or null. */
  SnapshotMeta receiving() {
    return receiving;
  }

  @Override
  public boolean completeReceive(SnapshotMeta meta) {
    if (!meta.equals(receiving) || checksum(received, receivedLength) != meta.checksum()) {
      receiving = null;
      return false;
    }
    latest = meta;
    latestData = Arrays.copyOf(received, receivedLength);
    receiving = null;
    return true;
  }

  /** A crash loses the snapshot being received. */
  void crash() {
    receiving = null;
    received = null;
  }

  private static long checksum(byte[] data, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, 0, length);
    return crc.getValue();
  }
}
