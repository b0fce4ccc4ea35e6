package io.tern.raft.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.journal.JournalConfig;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage.AppendRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameLimitTest {
  @Test
  void theDefaultFrameCarriesAnAppendOfTheLargestJournalEntry() {
    // The journal entry holds the Raft entry's 16-byte header and its data.
    byte[] data = new byte[JournalConfig.DEFAULT_MAX_ENTRY_SIZE_BYTES - 16];
    AppendRequest append =
        new AppendRequest(
            1,
            2,
            7,
            10,
            7,
            List.of(new RaftEntry(11, 7, RaftEntry.Type.APPLICATION, 99, data)),
            10);

    int frameBytes = Integer.BYTES + RaftMessageCodec.encodedLength(append);

    assertThat(frameBytes).isLessThanOrEqualTo(TransportConfig.DEFAULT_MAX_FRAME_BYTES);
  }
}
