package io.tern.raft.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.raft.Member;
import io.tern.raft.Membership;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestTest {
  private final Manifest manifest =
      new Manifest(
          42,
          7,
          0xFEDCBA98L,
          List.of(
              new Manifest.FileEntry("a", 0, 0),
              new Manifest.FileEntry("zürich", 1L << 40, 0x12345678)));

  @Test
  void encodesAndDecodesEveryField() {
    assertThat(Manifest.decode(manifest.encode())).isEqualTo(manifest);
  }

  @Test
  void anyDamageIsDetected() {
    byte[] bytes = manifest.encode();
    for (int i = 0; i < bytes.length; i++) {
      byte[] damaged = bytes.clone();
      damaged[i] ^= 0x40;
      assertThatThrownBy(() -> Manifest.decode(damaged)).as("byte %d", i).isNotNull();
    }
    for (int length = 0; length < bytes.length; length++) {
      byte[] torn = java.util.Arrays.copyOf(bytes, length);
      assertThatThrownBy(() -> Manifest.decode(torn)).as("torn at %d", length).isNotNull();
    }
  }

  private static final Membership MEMBERSHIP =
      new Membership(List.of(new Member(1, 2), new Member(4, 1)), List.of(new Member(5, 1)));

  @Test
  void encodesTheConfiguration() {
    Manifest withMembership = manifest.withMembership(MEMBERSHIP);

    assertThat(Manifest.decode(withMembership.encode())).isEqualTo(withMembership);
    assertThat(Manifest.decode(withMembership.encode()).membership()).isEqualTo(MEMBERSHIP);
  }

  /** Snapshots stored before configurations were recorded: version 2, read as recording none. */
  @Test
  void readsAVersion2ManifestAsRecordingNoConfiguration() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(Manifest.MAGIC);
    out.writeInt(2);
    out.writeLong(42);
    out.writeLong(7);
    out.writeLong(0xFEDCBA98L);
    out.writeInt(2);
    for (Manifest.FileEntry file : manifest.files()) {
      byte[] name = file.name().getBytes(StandardCharsets.UTF_8);
      out.writeShort(name.length);
      out.write(name);
      out.writeLong(file.sizeBytes());
      out.writeInt(file.crc32c());
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes.toByteArray());
    out.writeInt((int) crc.getValue());

    Manifest old = Manifest.decode(bytes.toByteArray());

    assertThat(old).isEqualTo(manifest);
    assertThat(old.membership()).isNull();
  }

  @Test
  void aTakenSnapshotKeepsItsConfigurationAcrossARestart(@TempDir Path root) throws IOException {
    try (FileSnapshotStore store = new FileSnapshotStore(root);
        SnapshotWriter writer = store.newSnapshot(9, 3, MEMBERSHIP)) {
      Files.write(writer.directory().resolve("state"), new byte[] {1, 2, 3});
      assertThat(writer.commit().membership()).isEqualTo(MEMBERSHIP);
    }

    try (FileSnapshotStore reopened = new FileSnapshotStore(root)) {
      assertThat(reopened.latest().membership()).isEqualTo(MEMBERSHIP);
    }
  }
}
