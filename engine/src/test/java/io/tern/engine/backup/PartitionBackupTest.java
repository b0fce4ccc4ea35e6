package io.tern.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionBackupTest {
  @TempDir Path dir;

  @Test
  void aSegmentsWrittenLengthEndsAtItsLastNonZeroByte() throws Exception {
    // Over two read chunks of 1 MiB, with zeros inside the written part too.
    byte[] segment = new byte[3 * 1024 * 1024 + 17];
    segment[0] = 1;
    segment[1_500_000] = 7;
    Path file = Files.write(dir.resolve("raft-1.log"), segment);
    assertThat(PartitionBackup.writtenLength(file)).isEqualTo(1_500_001);

    segment[segment.length - 1] = 9;
    Files.write(file, segment);
    assertThat(PartitionBackup.writtenLength(file)).isEqualTo(segment.length);

    assertThat(PartitionBackup.writtenLength(Files.write(dir.resolve("zeros"), new byte[5000])))
        .isZero();
    assertThat(PartitionBackup.writtenLength(Files.write(dir.resolve("empty"), new byte[0])))
        .isZero();
  }
}
