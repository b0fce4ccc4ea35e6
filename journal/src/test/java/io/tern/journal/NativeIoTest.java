package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Platform;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.BufferUtil;
import org.agrona.IoUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NativeIoTest {
  private static final int SIZE = 1024 * 1024;

  @TempDir Path directory;

  @Test
  void appliesAdviceOnLinuxAndSkipsNone() throws Exception {
    Path file = directory.resolve("mapped");
    new SegmentFiles(directory, "j").createPreallocated(file, SIZE, true);
    MappedByteBuffer mapped = Segment.map(file, SIZE);
    try {
      long address = BufferUtil.address(mapped);
      assertThat(NativeIo.madvise(address, SIZE, JournalConfig.Madvise.NONE)).isFalse();
      boolean linux = Platform.isLinux();
      assertThat(NativeIo.isAvailable()).isEqualTo(linux);
      assertThat(NativeIo.madvise(address, SIZE, JournalConfig.Madvise.RANDOM)).isEqualTo(linux);
    } finally {
      IoUtil.unmap(mapped);
    }
  }

  @Test
  void preallocatesTheFullSizeWithZeros() throws Exception {
    Path file = directory.resolve("spare");
    assertThat(NativeIo.fallocate(file, SIZE)).isEqualTo(Platform.isLinux());
    Path fallback = directory.resolve("fallback");
    new SegmentFiles(directory, "j").createPreallocated(fallback, SIZE, true);
    for (Path path : Platform.isLinux() ? new Path[] {file, fallback} : new Path[] {fallback}) {
      byte[] bytes = Files.readAllBytes(path);
      assertThat(bytes).hasSize(SIZE);
      assertThat(bytes).containsOnly(0);
    }
  }
}
