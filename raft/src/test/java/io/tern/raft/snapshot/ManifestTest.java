package io.tern.raft.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

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
}
