package io.tern.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CPU a partition's part costs its backup thread, step by step, in CPU seconds (user+sys of
 * this thread, which a loaded machine disturbs less than wall time): finding a segment's written
 * length, its CRC32C, and its upload to a file-system store, over segments as a journal leaves them
 * (preallocated 128 MB files, the active one mostly zeros). Run with -Dtern.measureBackupCpu=true;
 * prints the figures. Rounds alternate so that the page cache and the JIT treat each step alike.
 * Asserts only that the written length is found as before.
 */
@Tag("slow") // a measurement, on demand only: docs/testing.md
@EnabledIfSystemProperty(named = "tern.measureBackupCpu", matches = "true")
class BackupCpuMeasurement {
  private static final int SEGMENT = 128 << 20;
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  @TempDir Path dir;

  private interface Step {
    void run(Path file) throws Exception;
  }

  private static long cpuNs(Step step, Path file) throws Exception {
    long before = THREADS.getCurrentThreadCpuTime();
    step.run(file);
    return THREADS.getCurrentThreadCpuTime() - before;
  }

  /** A preallocated segment: {@code written} bytes of entries, then zeros to 128 MB. */
  private Path segment(String name, int written) throws Exception {
    Path file = dir.resolve(name);
    byte[] entries = new byte[1 << 20];
    new Random(written).nextBytes(entries);
    entries[entries.length - 1] = 1; // the last entry's last byte is no zero
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (int at = 0; at < written; at += entries.length) {
        out.write(ByteBuffer.wrap(entries, 0, Math.min(entries.length, written - at)), at);
      }
      out.write(ByteBuffer.wrap(new byte[1 << 20]), SEGMENT - (1 << 20)); // zeros to the end
    }
    return file;
  }

  /** PartitionBackup.writtenLength as it was: every byte of the zero end compared alone. */
  private static long writtenLengthByteByByte(Path file) throws Exception {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buffer = ByteBuffer.allocate(1 << 20);
      long end = channel.size();
      while (end > 0) {
        int chunk = (int) Math.min(buffer.capacity(), end);
        buffer.clear().limit(chunk);
        long from = end - chunk;
        while (buffer.hasRemaining()) {
          if (channel.read(buffer, from + buffer.position()) < 0) {
            break;
          }
        }
        for (int i = buffer.position() - 1; i >= 0; i--) {
          if (buffer.get(i) != 0) {
            return from + i + 1;
          }
        }
        end = from;
      }
      return 0;
    }
  }

  @Test
  void measure() throws Exception {
    Path active = segment("raft-9.log", 8 << 20);
    Path sealed = segment("raft-8.log", SEGMENT);
    assertThat(PartitionBackup.writtenLength(active))
        .isEqualTo(writtenLengthByteByByte(active))
        .isEqualTo(8 << 20);
    int rounds = Integer.getInteger("tern.measureBackupCpu.rounds", 5);
    FileSystemBackupStore store = new FileSystemBackupStore(dir.resolve("store"));
    List<long[]> figures = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      long[] ns = new long[6];
      ns[0] = cpuNs(BackupCpuMeasurement::writtenLengthByteByByte, active);
      ns[1] = cpuNs(PartitionBackup::writtenLength, active);
      ns[2] = cpuNs(PartitionBackup::writtenLength, sealed);
      ns[3] = cpuNs(PartitionBackup::crc32c, sealed);
      int r = round;
      ns[4] = cpuNs(file -> store.upload(1, 1, "journal/s-" + r, file), sealed);
      ns[5] = cpuNs(file -> store.upload(1, 1, "journal/a-" + r, file), active);
      figures.add(ns);
    }
    String[] names = {
      "writtenLength before (byte by byte), active",
      "writtenLength(active: 8 of 128 MB written)",
      "writtenLength(sealed 128 MB)",
      "crc32c(sealed 128 MB)",
      "filesystem upload(sealed 128 MB)",
      "filesystem upload(active 128 MB file)"
    };
    for (int step = 0; step < names.length; step++) {
      long[] each = new long[rounds];
      for (int round = 0; round < rounds; round++) {
        each[round] = figures.get(round)[step];
      }
      java.util.Arrays.sort(each);
      System.out.printf(
          "backup CPU: %-48s median %7.1f ms (min %.1f, max %.1f) over %d rounds%n",
          names[step], each[rounds / 2] / 1e6, each[0] / 1e6, each[rounds - 1] / 1e6, rounds);
    }
  }
}
