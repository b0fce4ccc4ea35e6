package io.tern.engine.workflow;

import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import java.nio.charset.StandardCharsets;

/**
 * How a partition's engine reaches the others: how many there are, and a way to write a command to
 * another partition's log. Sending is best effort (that partition may have no leader right now):
 * the engine sends again until the other side acknowledges, and handles every command idempotently.
 */
public interface Partitions {
  /** Partition ids are 1 to {@link #count()}. */
  int count();

  /** Writes a command to partition {@code partitionId}'s log, or drops it. */
  void send(int partitionId, Intent intent, long key, RecordValue value);

  /** One partition: nothing is ever sent elsewhere. */
  Partitions SINGLE =
      new Partitions() {
        @Override
        public int count() {
          return 1;
        }

        @Override
        public void send(int partitionId, Intent intent, long key, RecordValue value) {
          throw new IllegalStateException(
              "a single partition sends nothing to partition " + partitionId);
        }
      };

  /** The partition a message with this correlation key lives on (what gateways route by). */
  static int ofCorrelationKey(String correlationKey, int partitionCount) {
    int hash = 0;
    for (byte b : correlationKey.getBytes(StandardCharsets.UTF_8)) {
      hash = 31 * hash + (b & 0xFF);
    }
    return 1 + Math.floorMod(hash, partitionCount);
  }
}
