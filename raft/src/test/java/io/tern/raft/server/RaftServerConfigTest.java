package io.tern.raft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftLog;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.transport.RaftMessageCodec;
import io.tern.raft.transport.TransportConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class RaftServerConfigTest {
  private static final Path DATA = Path.of("data");
  private static final int DEFAULT_FRAME = TransportConfig.DEFAULT_MAX_FRAME_BYTES;

  private static RaftServerConfig config(UnaryOperator<RaftServerConfig.Builder> settings) {
    return settings.apply(RaftServerConfig.builder(DATA)).build();
  }

  @Test
  void badValuesAreRefusedNamingTheSetting() {
    assertThatThrownBy(() -> config(b -> b.maxInflightAppends(0)))
        .hasMessage("raft: maxInflightAppends must be >= 1, got 0");
    assertThatThrownBy(() -> config(b -> b.maxAppendBatchBytes(0)))
        .hasMessage("raft: maxAppendBatchBytes must be >= 1, got 0");
    assertThatThrownBy(() -> config(b -> b.flushMode(null)))
        .hasMessage("raft: flushMode is required");
    assertThatThrownBy(() -> config(b -> b.snapshotChunkBytes(100)))
        .hasMessageStartingWith("raft: snapshotChunkBytes must be within [1024, ")
        .hasMessageEndingWith("got 100");
    assertThatThrownBy(() -> config(b -> b.segmentSizeBytes(100)))
        .hasMessageStartingWith("raft: segmentSizeBytes must be within [256, ");
    assertThatThrownBy(() -> config(b -> b.maxPendingProposals((1 << 30) + 1)))
        .hasMessageContaining("maxPendingProposals must be within [1, 1073741824]");
  }

  @Test
  void theDefaultsAndTheBrokersLargestBatchFitTheDefaultFrames() {
    assertThatCode(() -> RaftServer.checkMessagesFitFrames(config(b -> b), DEFAULT_FRAME))
        .doesNotThrowAnyException();
    assertThatCode(
            () ->
                RaftServer.checkMessagesFitFrames(
                    config(b -> b.maxAppendBatchBytes(2 * 1024 * 1024)), DEFAULT_FRAME))
        .doesNotThrowAnyException();
  }

  @Test
  void anAppendBatchOrChunkLargerThanAFrameIsRefusedAtStart() {
    assertThatThrownBy(
            () ->
                RaftServer.checkMessagesFitFrames(
                    config(b -> b.maxAppendBatchBytes(4 * 1024 * 1024)), DEFAULT_FRAME))
        .hasMessageContaining("maxAppendBatchBytes 4194304")
        .hasMessageContaining("maxFrameBytes " + DEFAULT_FRAME);
    assertThatThrownBy(
            () ->
                RaftServer.checkMessagesFitFrames(
                    config(b -> b.snapshotChunkBytes(8 * 1024 * 1024)), DEFAULT_FRAME))
        .hasMessageContaining("snapshotChunkBytes 8388608")
        .hasMessageContaining("maxFrameBytes " + DEFAULT_FRAME);
  }

  /** The bound the start check uses holds for the worst batches the log can hand out. */
  @Test
  void theAppendFrameBoundCoversTheWorstBatches() {
    int maxBatchBytes = 64 * 1024;
    int maxEntryBytes = 1024 * 1024;
    long bound = RaftMessageCodec.appendFrameBytesAtMost(maxBatchBytes, maxEntryBytes);

    List<RaftEntry> tiny = new ArrayList<>();
    for (int i = 0; i < RaftLog.MAX_BATCH_ENTRIES; i++) {
      tiny.add(new RaftEntry(i + 1, 1, RaftEntry.Type.APPLICATION, i, new byte[0]));
    }
    List<RaftEntry> fullBatch = new ArrayList<>();
    for (int i = 0; i < maxBatchBytes / 1024; i++) {
      fullBatch.add(new RaftEntry(i + 1, 1, RaftEntry.Type.APPLICATION, i, new byte[1024]));
    }
    List<RaftEntry> oneLarge =
        List.of(new RaftEntry(1, 1, RaftEntry.Type.APPLICATION, 1, new byte[maxEntryBytes]));
    for (List<RaftEntry> entries : List.of(tiny, fullBatch, oneLarge)) {
      long frame =
          4
              + RaftMessageCodec.encodedLength(
                  new AppendRequest(1, 2, 1, 0, 0, entries, entries.size()));
      assertThat(frame).as("%d entries", entries.size()).isLessThanOrEqualTo(bound);
    }
  }
}
