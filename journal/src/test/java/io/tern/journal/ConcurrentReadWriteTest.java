package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer appends, truncates and compacts while several readers read. Every entry carries its
 * own index and a generation (bumped by each truncation) in a self-checking body, so a torn read, a
 * stale read of a removed entry mixed with a new one, or an out-of-order read is detected.
 */
class ConcurrentReadWriteTest {
  private static final int READERS = 3;
  private static final long WRITES = 60_000;
  private static final long SEED = Long.getLong("journal.concurrent.seed", 7L);

  @TempDir Path directory;

  @Test
  void readersNeverSeeTornOrMisorderedEntries() throws Exception {
    JournalConfig config =
        JournalConfig.builder(directory)
            .segmentSizeBytes(64 * 1024)
            .indexDensity(8)
            .fitMaxEntrySizeToSegment()
            .build();
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong entriesRead = new AtomicLong();
    AtomicLong deletedPositionsSeen = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(READERS);
    try (SegmentedJournal journal = SegmentedJournal.open(config)) {
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        readers.add(
            pool.submit(
                () -> {
                  readUntilDone(journal, done, entriesRead, deletedPositionsSeen);
                  return null;
                }));
      }
      write(journal);
      done.set(true);
      for (Future<?> reader : readers) {
        reader.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(entriesRead.get()).as("readers made progress").isGreaterThan(WRITES);
  }

  private static void write(SegmentedJournal journal) {
    Random random = new Random(SEED);
    UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
    long generation = 0;
    long asqn = 0;
    for (long i = 0; i < WRITES; i++) {
      int roll = random.nextInt(1000);
      if (roll < 3 && journal.getLastIndex() > journal.getFirstIndex() + 20) {

        generation++;
        journal.deleteAfter(journal.getLastIndex() - 1 - random.nextInt(20));
        // The asqn must still increase past whatever survived; keep it monotonic overall.
      } else if (roll < 5) {
        journal.deleteUntil(journal.getLastIndex() - 200);
      } else if (roll < 30) {
        journal.flush();
      }
      long index = journal.getLastIndex() + 1;
      int length = fill(buffer, index, generation, 16 + random.nextInt(1500));
      asqn += 1 + random.nextInt(3);
      assertThat(journal.append(asqn, buffer, 0, length)).isEqualTo(index);
    }
  }

  /** Layout: index (8), generation (8), then body bytes derived from both. */
  private static int fill(UnsafeBuffer buffer, long index, long generation, int length) {
    buffer.putLong(0, index);
    buffer.putLong(8, generation);
    for (int i = 16; i < length; i++) {
      buffer.putByte(i, bodyByte(index, generation, i));
    }
    return length;
  }

  private static byte bodyByte(long index, long generation, int offset) {
    return (byte) (index * 31 + generation * 17 + offset);
  }

  private static void readUntilDone(
      SegmentedJournal journal, AtomicBoolean done, AtomicLong read, AtomicLong deleted) {
    try (JournalReader reader = journal.openReader()) {
      long previous = reader.getNextIndex() - 1;
      while (!done.get()) {
        try {
          if (!reader.hasNext()) {
            Thread.onSpinWait();
            continue;
          }
          long epochBefore = journal.truncations().epoch();
          JournalRecord record = reader.next();
          assertThat(record.index()).as("indexes are contiguous").isEqualTo(previous + 1);
          boolean intact = isIntact(record);
          // A returned view may be zeroed by a later truncation of that entry (documented); only
          // a check that no truncation overlapped can blame the reader.
          if (!intact && journal.truncations().epoch() == epochBefore) {
            throw new AssertionError(
                "Torn or stale entry "
                    + record.index()
                    + ": "
                    + describe(record)
                    + ", "
                    + reader
                    + " (replay with -Djournal.concurrent.seed="
                    + SEED
                    + ")");
          }
          previous = record.index();
          read.incrementAndGet();
        } catch (java.util.NoSuchElementException e) {
          // hasNext() was true, then a truncation removed exactly the entries after our position.
          assertThat(reader.getNextIndex()).isEqualTo(previous + 1);
        } catch (JournalException.PositionDeleted e) {
          deleted.incrementAndGet();
          previous = reader.seekToFirst() - 1;
        }
      }
    }
  }

  private static String describe(JournalRecord record) {
    DirectBuffer data = record.data();
    StringBuilder b = new StringBuilder("len=" + data.capacity());
    if (data.capacity() >= 16) {
      b.append(" idx=").append(data.getLong(0)).append(" gen=").append(data.getLong(8));
      for (int i = 16; i < data.capacity(); i++) {
        if (data.getByte(i) != bodyByte(data.getLong(0), data.getLong(8), i)) {
          b.append(" firstBad=").append(i);
          int zeros = 0;
          for (int j = i; j < data.capacity(); j++) {
            if (data.getByte(j) == 0) zeros++;
          }
          b.append(" zerosAfter=").append(zeros).append("/").append(data.capacity() - i);
          break;
        }
      }
    }
    return b.toString();
  }

  private static boolean isIntact(JournalRecord record) {
    DirectBuffer data = record.data();
    if (data.capacity() < 16 || data.getLong(0) != record.index()) {
      return false;
    }
    long generation = data.getLong(8);
    for (int i = 16; i < data.capacity(); i++) {
      if (data.getByte(i) != bodyByte(record.index(), generation, i)) {
        return false;
      }
    }
    return true;
  }
}
