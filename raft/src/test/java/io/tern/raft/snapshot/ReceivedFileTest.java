package io.tern.raft.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReceivedFileTest {
  @TempDir Path dir;

  /** Aligned pieces, then unaligned ones, then aligned sizes at an unaligned offset. */
  private static void writeMixedPieces(Path file) throws Exception {
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    ReceivedFile.DirectBuffer staging = new ReceivedFile.DirectBuffer();
    Manifest.FileEntry entry;
    try (ReceivedFile received = new ReceivedFile(file, staging)) {
      int[] sizes = {8192, 65536, 4096, 100, 4096, 3};
      for (int i = 0; i < sizes.length; i++) {
        byte[] piece = Transfers.randomBytes(sizes[i], i);
        received.append(piece);
        expected.write(piece);
      }
      entry = received.finish();
    }
    byte[] all = expected.toByteArray();
    CRC32C crc = new CRC32C();
    crc.update(all);
    assertThat(Files.readAllBytes(file)).isEqualTo(all);
    assertThat(entry.sizeBytes()).isEqualTo(all.length);
    assertThat(entry.crc32c()).isEqualTo((int) crc.getValue());
    assertThat(entry.name()).isEqualTo(file.getFileName().toString());
  }

  @Test
  void piecesOfAnyAlignmentLandInOrderWithTheirCrc() throws Exception {
    writeMixedPieces(dir.resolve("f"));
  }

  /** tmpfs refused O_DIRECT before Linux 6.6; either way every byte must land. */
  @Test
  void aTmpfsFileGetsEveryByteWithOrWithoutDirectIo() throws Exception {
    Path shm = Path.of("/dev/shm");
    assumeThat(Files.isDirectory(shm) && Files.isWritable(shm)).isTrue();
    Path sub = Files.createTempDirectory(shm, "tern-received-file");
    try {
      writeMixedPieces(sub.resolve("f"));
    } finally {
      SnapshotFiles.deleteRecursively(sub);
    }
  }

  @Test
  void anExistingFileIsNotOverwritten() throws Exception {
    Path file = Files.write(dir.resolve("taken"), new byte[] {1});
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> new ReceivedFile(file, new ReceivedFile.DirectBuffer()))
        .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    assertThat(Files.readAllBytes(file)).containsExactly(1);
  }
}
