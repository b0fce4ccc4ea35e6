package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Simulated crashes. A process crash cannot be staged inside a test, so the disk state a crash can
 * leave is rebuilt from copies of the journal directory, taken while the journal is still open:
 *
 * <ul>
 *   <li>a copy right after {@code flush()}: what is durable (the "flushed" state);
 *   <li>a copy after more appends without a flush: what the page cache holds (the "cache" state).
 * </ul>
 *
 * Neither copy ever sees a clean close, so the journal's durable state says "not cleanly shut
 * down". A crash leaves, page by page, either state for everything written after the flush; on top
 * of that the tests tear sectors, flip bytes, zero markers and cut files, always beyond the flushed
 * frames. The journal opened on such a directory must hold every flushed entry with its exact
 * bytes, possibly followed by a prefix of the unflushed ones (exact bytes too), and nothing else;
 * it must then accept appends that survive both a clean reopen and another crash.
 *
 * <p>Every scenario is driven by one seed. Replay one with {@code ./mvnw -pl journal test
 * -Dtest=JournalCrashTest -Djournal.crash.seed=N}; run more with {@code -Djournal.crash.seeds=N}
 * (default 200) and {@code -Djournal.crash.firstSeed=N} (default 1; {@code random} for a new one
 * each run, as in {@code -Pquick}).
 */
class JournalCrashTest {
  private static final String NAME = "journal";
  private static final int PAGE = 4096;
  private static final int SECTOR = 512;
  private static final Pattern SEGMENT = Pattern.compile(NAME + "-(\\d+)\\.log");

  /** The descriptor's bytes covered by its version and checksum: id, first index, size. */
  private static final int DESCRIPTOR_CHECKED = SegmentDescriptor.HINT_LAST_INDEX_OFFSET;

  private final List<Path> roots = new ArrayList<>();
  private final List<AutoCloseable> toClose = new ArrayList<>();

  @AfterEach
  void cleanUp() throws Exception {
    for (AutoCloseable closeable : toClose) {
      try {
        closeable.close();
      } catch (RuntimeException e) {
        // Already failed; the directory is deleted anyway.
      }
    }
    toClose.clear();
    for (Path root : roots) {
      JournalPropertyTest.deleteRecursively(root);
    }
    roots.clear();
  }

  // ================================================================ random crash scenarios

  enum Damage {
    /** The cache state as is: nothing lost. */
    NONE,
    /** Each page (sometimes each sector) written after the flush is either durable or not. */
    PAGE_MIX,
    /** Everything from a random offset beyond the flushed frames to the end of that file is 0. */
    ZERO_FROM,
    /** A few random bytes beyond the flushed frames are flipped. */
    FLIP_BYTES,
    /** One unflushed frame's marker is zero. */
    ZERO_MARKER
  }

  @TestFactory
  Stream<DynamicTest> crashAfterTheLastFlushKeepsEveryFlushedEntry() {
    Long only = Long.getLong("journal.crash.seed");
    String firstSeed = System.getProperty("journal.crash.firstSeed", "1");
    // "random" (as in -Pquick): a new first seed each run, in each seed's test name.
    long first =
        firstSeed.equals("random")
            ? new java.util.Random().nextInt(1_000_000_000)
            : Long.parseLong(firstSeed);
    long count = Long.getLong("journal.crash.seeds", 200L);
    LongStream seeds = only != null ? LongStream.of(only) : LongStream.range(first, first + count);
    return seeds.mapToObj(
        seed -> DynamicTest.dynamicTest("seed " + seed, () -> runCrashScenario(seed)));
  }

  private void runCrashScenario(long seed) throws Exception {
    Scenario scenario = new Scenario(seed, newRoot());
    try {
      scenario.run();
    } catch (Throwable e) {
      throw new AssertionError(
          "Crash scenario with seed "
              + seed
              + " failed: "
              + e
              + "\n--- scenario ---\n"
              + scenario.log
              + "--- replay just this seed with: ./mvnw -pl journal test -Dtest=JournalCrashTest"
              + " -Djournal.crash.seed="
              + seed,
          e);
    } finally {
      scenario.close();
    }
  }

  /** One seeded crash scenario; see the class comment. */
  private static final class Scenario implements AutoCloseable {
    final long seed;
    final Random random;
    final Path root;
    final StringBuilder log = new StringBuilder();
    final int segmentSize;
    final int indexDensity;
    final TreeMap<Long, Entry> expected = new TreeMap<>();
    final List<SegmentedJournal> open = new ArrayList<>();
    long nextAsqn = 1;
    long firstIndex = 1;

    Scenario(long seed, Path root) {
      this.seed = seed;
      this.random = new Random(seed);
      this.root = root;
      this.segmentSize = random.nextBoolean() ? 8 * 1024 : 16 * 1024;
      this.indexDensity = 1 + random.nextInt(5);
      log("segmentSize=%d indexDensity=%d", segmentSize, indexDensity);
    }

    void log(String format, Object... args) {
      log.append(String.format(format, args)).append('\n');
    }

    JournalConfig.OpenVerification verification() {
      return random.nextBoolean()
          ? JournalConfig.OpenVerification.TAIL
          : JournalConfig.OpenVerification.FULL;
    }

    SegmentedJournal open(Path dir, String what) {
      JournalConfig.OpenVerification verification = verification();
      log("open %s (%s) with %s", dir.getFileName(), what, verification);
      SegmentedJournal journal =
          SegmentedJournal.open(config(dir, segmentSize, indexDensity, verification));
      open.add(journal);
      return journal;
    }

    void run() throws IOException {
      Path live = root.resolve("live");
      SegmentedJournal journal = open(live, "fresh");

      // History: appends, flushes, truncations, compactions and clean reopens.
      int rounds = 1 + random.nextInt(4);
      for (int round = 0; round < rounds; round++) {
        appendRandom(journal, random.nextInt(30), true);
        if (random.nextInt(4) == 0) {
          journal.flush();
          log("flush");
        }
        if (random.nextInt(5) == 0 && !expected.isEmpty()) {
          long index = firstIndex - 1 + random.nextInt(expected.size() + 1);
          journal.deleteAfter(index);
          expected.tailMap(index, false).clear();
          log("deleteAfter(%d)", index);
        }
        if (random.nextInt(5) == 0 && !expected.isEmpty()) {
          long index = firstIndex + random.nextInt(expected.size() + 2);
          journal.deleteUntil(index);
          firstIndex = journal.getFirstIndex();
          expected.headMap(firstIndex, false).clear();
          log("deleteUntil(%d): first index now %d", index, firstIndex);
        }
        if (random.nextInt(4) == 0) {
          journal.close();
          journal = open(live, "clean reopen");
        }
      }
      journal.flush();
      long flushed = journal.getLastIndex();
      assertThat(journal.getLastFlushedIndex()).isEqualTo(flushed);
      Path flushedCopy = copyOf(live, "flushed");
      log("flushed up to %d (first index %d); copied the flushed state", flushed, firstIndex);

      int unflushed = random.nextInt(40);
      appendRandom(journal, unflushed, false);
      journal.publish(); // published entries are in the page cache, which a process crash keeps
      Path cacheCopy = copyOf(live, "cache");
      log("appended %d entries without flush; copied the cache state", unflushed);
      journal.close(); // the copies keep the unclean state

      Path crash = root.resolve("crash");
      Files.createDirectories(crash);
      Damage damage = Damage.values()[random.nextInt(Damage.values().length)];
      long firstDamaged = damage(damage, flushedCopy, cacheCopy, crash, flushed);

      SegmentedJournal recovered;
      try {
        recovered = open(crash, "after the crash");
      } catch (RuntimeException e) {
        throw new AssertionError(
            "the journal must open after a crash that only damaged data after the last flush", e);
      }
      long last = recovered.getLastIndex();
      log("recovered entries %d..%d", recovered.getFirstIndex(), last);
      assertThat(recovered.getFirstIndex()).as("first index").isEqualTo(firstIndex);
      assertThat(last)
          .as("last index: every flushed entry survives, nothing beyond what was written")
          .isBetween(flushed, flushed + unflushed);
      if (damage == Damage.NONE) {
        assertThat(last).as("nothing was lost").isEqualTo(flushed + unflushed);
      }
      assertThat(last)
          .as("no entry at or after a damaged frame (%d) is recovered", firstDamaged)
          .isLessThan(firstDamaged);
      assertThat(recovered.getLastFlushedIndex())
          .as("recovered entries are flushed")
          .isEqualTo(last);
      expected.tailMap(last, false).clear();
      assertContents(recovered, expected, "after recovery");

      // The recovered journal takes new entries (same sizes as the lost ones where there were
      // lost ones, so that stale frames would line up) that survive a crash and a clean reopen.
      int more = random.nextInt((int) (flushed + unflushed - last) + 5);
      for (int i = 0; i < more; i++) {
        if (random.nextInt(8) == 0) {
          recovered.flush();
        }
        appendOne(recovered, sizeLike(i, last), false);
      }
      log("appended %d entries after recovery", more);
      recovered.publish();
      Path secondCrash = copyOf(crash, "second-crash");
      recovered.close();
      try (SegmentedJournal reopened = open(crash, "clean reopen after recovery")) {
        assertContents(reopened, expected, "after recovery, appends and a clean reopen");
      }
      try (SegmentedJournal reopened = open(secondCrash, "second crash, nothing lost")) {
        assertContents(reopened, expected, "after recovery, appends and a second crash");
      }
    }

    /** The size of the original entry {@code last + 1 + i} if there was one, else random. */
    private int sizeLike(int i, long last) {
      Entry original = originalSizes.get(last + 1 + i);
      return original != null ? original.data.length : randomSize();
    }

    private final TreeMap<Long, Entry> originalSizes = new TreeMap<>();

    private int randomSize() {
      int bucket = random.nextInt(10);
      int max = segmentSize / 3;
      if (bucket < 6) {
        return random.nextInt(600);
      } else if (bucket < 9) {
        return 600 + random.nextInt(2400);
      }
      return random.nextInt(max);
    }

    void appendRandom(SegmentedJournal journal, int count, boolean logIt) {
      long before = journal.getLastIndex();
      for (int i = 0; i < count; i++) {
        appendOne(journal, randomSize(), true);
      }
      if (logIt) {
        log("append %d..%d", before + 1, journal.getLastIndex());
      }
    }

    void appendOne(SegmentedJournal journal, int size, boolean original) {
      byte[] data = new byte[size];
      random.nextBytes(data);
      long asqn = random.nextInt(8) == 0 ? Journal.ASQN_IGNORE : nextAsqn++;
      long index = journal.append(asqn, new UnsafeBuffer(data));
      Entry entry = new Entry(index, asqn, data);
      expected.put(index, entry);
      if (original) {
        originalSizes.put(index, entry);
      }
    }

    Path copyOf(Path dir, String name) throws IOException {
      Path copy = root.resolve(name);
      Files.createDirectories(copy);
      JournalPropertyTest.copyDirectory(dir, copy);
      return copy;
    }

    /**
     * Builds the crash state in {@code crash}.
     *
     * @return the lowest index whose frame was damaged, or {@code Long.MAX_VALUE}
     */
    long damage(Damage damage, Path flushedCopy, Path cacheCopy, Path crash, long flushed)
        throws IOException {
      TreeMap<Long, SegmentFile> durable = SegmentFile.list(flushedCopy);
      TreeMap<Long, SegmentFile> cache = SegmentFile.list(cacheCopy);
      long flushSegment = durable.lastKey();
      int flushedEnd = durable.lastEntry().getValue().end();
      // Byte ranges written after the flush: the rest of the flush-time segment (and its hint, set
      // when it was sealed) and every later segment.
      Map<Long, Integer> unflushedFrom = new TreeMap<>();
      for (SegmentFile file : cache.values()) {
        if (file.id == flushSegment) {
          unflushedFrom.put(file.id, flushedEnd);
        } else if (file.id > flushSegment) {
          unflushedFrom.put(file.id, 0);
        }
      }
      Map<Long, byte[]> contents = new TreeMap<>();
      for (SegmentFile file : cache.values()) {
        contents.put(file.id, Files.readAllBytes(file.path));
      }
      List<Long> deleted = new ArrayList<>();
      switch (damage) {
        case NONE -> log("damage: none");
        case PAGE_MIX -> {
          double keep = random.nextDouble();
          boolean tearSectors = random.nextInt(3) == 0;
          StringBuilder lostPages = new StringBuilder();
          for (long id : unflushedFrom.keySet()) {
            byte[] now = contents.get(id);
            SegmentFile before = durable.get(id);
            byte[] old = before == null ? new byte[now.length] : Files.readAllBytes(before.path);
            int unit = tearSectors && random.nextBoolean() ? SECTOR : PAGE;
            for (int from = 0; from < now.length; from += unit) {
              if (random.nextDouble() >= keep) {
                int to = Math.min(now.length, from + unit);
                if (!Arrays.equals(now, from, to, old, from, to)) {
                  System.arraycopy(old, from, now, from, to - from);
                  lostPages.append(' ').append(id).append('@').append(from);
                }
              }
            }
          }
          List<Long> newer = new ArrayList<>(unflushedFrom.keySet());
          newer.remove(flushSegment);
          if (!newer.isEmpty() && random.nextInt(5) == 0) {
            // The renames of the newest segments (spare -> segment) did not reach the disk.
            deleted.addAll(newer.subList(random.nextInt(newer.size()), newer.size()));
          }
          log(
              "damage: page mix (keep %.2f, %s): reverted%s; lost renames of segments %s",
              keep, tearSectors ? "sectors too" : "pages", lostPages, deleted);
        }
        case ZERO_FROM -> {
          long id = randomKey(unflushedFrom);
          byte[] bytes = contents.get(id);
          int start = unflushedFrom.get(id);
          if (start < bytes.length) {
            int from = start + random.nextInt(bytes.length - start);
            Arrays.fill(bytes, from, bytes.length, (byte) 0);
            boolean dropLater = random.nextBoolean();
            if (dropLater) {
              deleted.addAll(cache.tailMap(id, false).keySet());
            }
            log(
                "damage: zero segment %d from offset %d (dropping later segments: %s)",
                id, from, dropLater);
          }
        }
        case FLIP_BYTES -> {
          int flips = 1 + random.nextInt(4);
          for (int i = 0; i < flips; i++) {
            long id = randomKey(unflushedFrom);
            byte[] bytes = contents.get(id);
            int start = unflushedFrom.get(id);
            int offset;
            if (id == flushSegment && (start >= bytes.length || random.nextInt(4) == 0)) {
              offset = 32 + random.nextInt(16); // the hint written when the segment was sealed
            } else if (start < bytes.length) {
              offset = start + random.nextInt(bytes.length - start);
            } else {
              continue;
            }
            bytes[offset] ^= (byte) (1 + random.nextInt(255));
            Frame frame = cache.get(id).frameCovering(offset);
            log(
                "damage: flip the byte at offset %d of segment %d (%s)",
                offset, id, frame == null ? "no frame" : "in entry " + frame.index);
          }
        }
        case ZERO_MARKER -> {
          List<Frame> frames = new ArrayList<>();
          cache
              .values()
              .forEach(f -> f.frames.stream().filter(x -> x.index > flushed).forEach(frames::add));
          if (frames.isEmpty()) {
            log("damage: none (no unflushed frame to zero the marker of)");
          } else {
            Frame frame = frames.get(random.nextInt(frames.size()));
            Arrays.fill(
                contents.get(frame.segmentId), frame.position, frame.position + 4, (byte) 0);
            log(
                "damage: zero the marker of entry %d (segment %d offset %d)",
                frame.index, frame.segmentId, frame.position);
          }
        }
      }
      for (Map.Entry<Long, byte[]> file : contents.entrySet()) {
        if (!deleted.contains(file.getKey())) {
          Files.write(crash.resolve(NAME + "-" + file.getKey() + ".log"), file.getValue());
        }
      }
      // Which written entries can no longer be read back: the first frame (in index order) whose
      // checked bytes changed, or whose segment lost its file or its descriptor.
      long firstDamaged = Long.MAX_VALUE;
      for (SegmentFile file : cache.values()) {
        if (file.frames.isEmpty()) {
          continue;
        }
        byte[] now = contents.get(file.id);
        byte[] written = Files.readAllBytes(file.path);
        if (deleted.contains(file.id)
            || !Arrays.equals(now, 0, DESCRIPTOR_CHECKED, written, 0, DESCRIPTOR_CHECKED)) {
          firstDamaged = Math.min(firstDamaged, file.frames.get(0).index);
          continue;
        }
        for (Frame frame : file.frames) {
          int from = frame.position;
          int to = from + frame.checksummedLength();
          if (!Arrays.equals(now, from, to, written, from, to)) {
            firstDamaged = Math.min(firstDamaged, frame.index);
            break;
          }
        }
      }
      log("first damaged entry: %s", firstDamaged == Long.MAX_VALUE ? "none" : firstDamaged);
      // The meta file and the spare are copied as they are (the spare may be missing or partial).
      try (Stream<Path> others = Files.list(cacheCopy)) {
        for (Path other : others.toList()) {
          if (!SEGMENT.matcher(other.getFileName().toString()).matches()) {
            Files.copy(other, crash.resolve(other.getFileName()));
          }
        }
      }
      return firstDamaged;
    }

    private long randomKey(Map<Long, Integer> map) {
      List<Long> keys = new ArrayList<>(map.keySet());
      return keys.get(random.nextInt(keys.size()));
    }

    @Override
    public void close() {
      for (SegmentedJournal journal : open) {
        try {
          journal.close();
        } catch (RuntimeException e) {
          // best effort
        }
      }
      JournalPropertyTest.deleteRecursively(root);
    }
  }

  // ================================================================ corruption at or below the
  // flushed index

  @Test
  void corruptionOfAFlushedFrameInTheLastSegmentFailsTheOpen() throws Exception {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      boolean crashed = random.nextBoolean();
      JournalConfig.OpenVerification verification =
          random.nextBoolean()
              ? JournalConfig.OpenVerification.TAIL
              : JournalConfig.OpenVerification.FULL;
      Path dir = newRoot().resolve("journal");
      Path damaged = flushedJournal(dir, random, 30, crashed);
      TreeMap<Long, SegmentFile> segments = SegmentFile.list(damaged);
      SegmentFile last = segments.lastEntry().getValue();
      if (last.frames.isEmpty()) {
        continue;
      }
      Frame frame = last.frames.get(random.nextInt(last.frames.size()));
      int offset = frame.position + random.nextInt(frame.checksummedLength());
      flipByte(last.path, offset, random);
      String context =
          String.format(
              "seed %d: byte %d of entry %d (frame at %d) in %s, %s, %s",
              seed,
              offset,
              frame.index,
              frame.position,
              last.path.getFileName(),
              crashed ? "after a crash" : "after a clean close",
              verification);

      Throwable thrown = catchThrowable(() -> openForTest(damaged, verification).close());

      assertCorrupted(thrown, last.path, frame.position, context);
    }
  }

  /**
   * The newest flush record lives in the descriptor of the segment holding the newest entries. A
   * damaged descriptor there once hid that record: open took an older segment's record for the
   * flushed index, judged the segment to hold nothing flushed, and deleted it with a warning (a
   * single-segment journal reopened empty). Damage to the descriptor of a segment holding flushed
   * entries is corruption.
   */
  @Test
  void damageToTheDescriptorOfTheLastSegmentFailsTheOpen() throws Exception {
    for (long seed = 1; seed <= 24; seed++) {
      Random random = new Random(seed);
      boolean crashed = random.nextBoolean();
      int entries = random.nextBoolean() ? 3 : 30; // one segment, or several
      Path dir = newRoot().resolve("journal");
      Path damaged = flushedJournal(dir, random, entries, crashed);
      SegmentFile last = SegmentFile.list(damaged).lastEntry().getValue();
      boolean zeroVersion = random.nextInt(4) == 0;
      int offset = random.nextInt(SegmentDescriptor.HINT_CRC_START);
      if (zeroVersion) {
        try (FileChannel channel = FileChannel.open(last.path, StandardOpenOption.WRITE)) {
          channel.write(ByteBuffer.allocate(4), SegmentDescriptor.VERSION_OFFSET);
        }
      } else {
        flipByte(last.path, offset, random);
      }
      String context =
          String.format(
              "seed %d: %s of %s (%d entries, %d segments), %s",
              seed,
              zeroVersion ? "version zeroed" : "byte " + offset + " of the descriptor",
              last.path.getFileName(),
              entries,
              SegmentFile.list(damaged).size(),
              crashed ? "after a crash" : "after a clean close");

      Throwable thrown =
          catchThrowable(() -> openForTest(damaged, JournalConfig.OpenVerification.TAIL).close());

      assertCorrupted(thrown, last.path, 0, context);
    }
  }

  /** A refused open must leave nothing mapped or open: the caller may repair and retry. */
  @Test
  void aRefusedOpenKeepsNoSegmentMappedOrOpen() throws Exception {
    assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "needs Linux /proc");
    Random random = new Random(7);
    Path dir = newRoot().resolve("journal");
    Path damaged = flushedJournal(dir, random, 30, false);
    TreeMap<Long, SegmentFile> segments = SegmentFile.list(damaged);
    assertThat(segments).hasSizeGreaterThan(2);
    SegmentFile last = segments.lastEntry().getValue();
    flipByte(last.path, last.frames.get(0).position + 20, random);
    assertThat(handlesUnder(damaged)).as("before opening").isZero();

    for (int attempt = 1; attempt <= 3; attempt++) {
      Throwable thrown =
          catchThrowable(
              () ->
                  SegmentedJournal.open(
                      JournalConfig.builder(damaged)
                          .name(NAME)
                          .segmentSizeBytes(SMALL_SEGMENT)
                          .indexDensity(3)
                          .freeDiskSpaceReserveBytes(0)
                          .fitMaxEntrySizeToSegment()
                          .build()));
      assertThat(thrown).isInstanceOf(JournalException.CorruptedJournal.class);
      assertThat(handlesUnder(damaged))
          .as("mappings and descriptors left by refused open %d", attempt)
          .isZero();
    }
  }

  /** Mappings and file descriptors of this process on files under {@code dir} (Linux). */
  private static long handlesUnder(Path dir) throws IOException {
    String prefix = dir.toRealPath().toString() + "/";
    long maps =
        Files.readAllLines(Path.of("/proc/self/maps")).stream()
            .filter(line -> line.contains(prefix))
            .count();
    long descriptors;
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      descriptors =
          fds.filter(
                  fd -> {
                    try {
                      return Files.readSymbolicLink(fd).toString().startsWith(prefix);
                    } catch (IOException e) {
                      return false; // closed while listing
                    }
                  })
              .count();
    }
    return maps + descriptors;
  }

  @Test
  void lastFlushIsCutNotRefusedWithASharedFlushRecord() throws Exception {
    int exercised = 0;
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      Path dir = newRoot().resolve("journal");
      Map<Long, Entry> written = new TreeMap<>();
      SegmentedJournal journal = openForTest(dir, JournalConfig.OpenVerification.TAIL);
      appendAcrossSegments(journal, written, random, 20);
      journal.flush();
      long confirmed = journal.getLastIndex();
      appendAcrossSegments(journal, written, random, 5);
      journal.flush(); // its record can only vouch for the first flush
      Path copy = dir.resolveSibling("crashed");
      Files.createDirectories(copy);
      JournalPropertyTest.copyDirectory(dir, copy);
      journal.close();
      SegmentFile last = SegmentFile.list(copy).lastEntry().getValue();
      Frame frame = last.frames.get(last.frames.size() - 1);
      if (frame.index <= confirmed) {
        continue; // the last batch rolled into a new segment; nothing to damage here
      }
      exercised++;
      flipByte(last.path, frame.position + FrameLayout.DATA_OFFSET - 1, random);

      try (SegmentedJournal reopened =
          SegmentedJournal.open(
              config(copy, SMALL_SEGMENT, 3, JournalConfig.OpenVerification.TAIL))) {
        assertThat(reopened.getLastIndex())
            .as("seed %d: cut before the damaged entry %d", seed, frame.index)
            .isEqualTo(frame.index - 1)
            .isGreaterThanOrEqualTo(confirmed);
      }
    }
    assertThat(exercised).as("seeds that damaged the last flush").isGreaterThan(5);
  }

  @Test
  void aSeparateFlushRecordRefusesDamageInTheLastFlush() throws Exception {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      Path dir = newRoot().resolve("journal");
      JournalConfig.Builder builder =
          JournalConfig.builder(dir)
              .name(NAME)
              .segmentSizeBytes(SMALL_SEGMENT)
              .indexDensity(3)
              .freeDiskSpaceReserveBytes(0)
              .flushRecordSync(JournalConfig.FlushRecordSync.SEPARATE)
              .fitMaxEntrySizeToSegment();
      SegmentedJournal journal = SegmentedJournal.open(builder.build());
      appendAcrossSegments(journal, new TreeMap<>(), random, 20);
      journal.flush(); // one flush, no idle flush after it
      Path copy = dir.resolveSibling("crashed");
      Files.createDirectories(copy);
      JournalPropertyTest.copyDirectory(dir, copy);
      journal.close();
      SegmentFile last = SegmentFile.list(copy).lastEntry().getValue();
      if (last.frames.isEmpty()) {
        continue;
      }
      Frame frame = last.frames.get(last.frames.size() - 1);
      flipByte(last.path, frame.position + FrameLayout.DATA_OFFSET - 1, random);

      Throwable thrown =
          catchThrowable(() -> SegmentedJournal.open(builder.directory(copy).build()));

      assertCorrupted(thrown, last.path, frame.position, "seed " + seed);
    }
  }

  @Test
  void corruptionOfAFlushedFrameInASealedSegmentFailsTheOpenWithFullVerification()
      throws Exception {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      boolean crashed = random.nextBoolean();
      Path dir = newRoot().resolve("journal");
      Path damaged = flushedJournal(dir, random, 60, crashed);
      TreeMap<Long, SegmentFile> segments = SegmentFile.list(damaged);
      assertThat(segments).as("several segments").hasSizeGreaterThan(2);
      SegmentFile sealed = segments.firstEntry().getValue();
      Frame frame = sealed.frames.get(random.nextInt(sealed.frames.size()));
      int offset = frame.position + random.nextInt(frame.checksummedLength());
      flipByte(sealed.path, offset, random);
      String context =
          String.format(
              "seed %d: byte %d of entry %d (frame at %d) in %s",
              seed, offset, frame.index, frame.position, sealed.path.getFileName());

      Throwable thrown =
          catchThrowable(() -> openForTest(damaged, JournalConfig.OpenVerification.FULL).close());

      assertCorrupted(thrown, sealed.path, frame.position, context);
    }
  }

  @Test
  void corruptionInATrustedSealedSegmentIsDetectedWhenRead() throws Exception {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      Path dir = newRoot().resolve("journal");
      // A clean close: every sealed segment's hint is covered by the flushed index, so the default
      // TAIL verification trusts it without a scan.
      Path damaged = flushedJournal(dir, random, 60, false);
      TreeMap<Long, SegmentFile> segments = SegmentFile.list(damaged);
      assertThat(segments).as("several segments").hasSizeGreaterThan(2);
      SegmentFile sealed = segments.firstEntry().getValue();
      List<Frame> withData = sealed.frames.stream().filter(f -> f.length > 0).toList();
      Frame frame = withData.get(random.nextInt(withData.size()));
      int offset = frame.position + FrameLayout.DATA_OFFSET + random.nextInt(frame.length);
      flipByte(sealed.path, offset, random);
      String context =
          String.format(
              "seed %d: data byte %d of entry %d (frame at %d) in %s",
              seed, offset, frame.index, frame.position, sealed.path.getFileName());

      SegmentedJournal journal = openForTest(damaged, JournalConfig.OpenVerification.TAIL);
      JournalReader reader = journal.openReader();
      toClose.add(reader);
      for (long index = journal.getFirstIndex(); index < frame.index; index++) {
        assertThat(reader.next().index()).as(context).isEqualTo(index);
      }
      Throwable thrown = catchThrowable(reader::next);
      assertCorrupted(thrown, sealed.path, frame.position, context);
      assertThat(reader.seek(frame.index)).isEqualTo(frame.index);
      assertCorrupted(catchThrowable(reader::next), sealed.path, frame.position, context);
      // Entries after it are still readable.
      if (frame.index < journal.getLastIndex()) {
        reader.seek(frame.index + 1);
        assertThat(reader.next().index()).as(context).isEqualTo(frame.index + 1);
      }
    }
  }

  @Test
  void corruptionOfAnyCheckedByteOfATrustedSegmentIsNeverReturned() throws Exception {
    for (long seed = 1; seed <= 30; seed++) {
      Random random = new Random(seed);
      Path dir = newRoot().resolve("journal");
      Map<Long, Entry> written = new TreeMap<>();
      Path damaged = flushedJournal(dir, random, 60, false, written);
      TreeMap<Long, SegmentFile> segments = SegmentFile.list(damaged);
      SegmentFile sealed = segments.firstEntry().getValue();
      Frame frame = sealed.frames.get(random.nextInt(sealed.frames.size()));
      int offset = frame.position + random.nextInt(frame.checksummedLength());
      flipByte(sealed.path, offset, random);
      String context =
          String.format(
              "seed %d: byte %d of entry %d (frame at %d) in %s",
              seed, offset, frame.index, frame.position, sealed.path.getFileName());

      // Wherever the damage is noticed (open, seek or read), it is reported, never returned.
      Throwable thrown =
          catchThrowable(
              () -> {
                SegmentedJournal journal =
                    openForTest(damaged, JournalConfig.OpenVerification.TAIL);
                try (JournalReader reader = journal.openReader()) {
                  while (reader.hasNext()) {
                    JournalRecord record = reader.next();
                    assertRecord(record, written.get(record.index()), context);
                  }
                }
              });
      assertThat(thrown)
          .as("reading a damaged trusted segment (%s)", context)
          .isInstanceOf(JournalException.CorruptedJournal.class);
      assertThat(((JournalException.CorruptedJournal) thrown).file())
          .as(context)
          .isEqualTo(sealed.path);
    }
  }

  // ================================================================ flush records

  /** Flips a byte of the given flush slot in every segment's descriptor. */
  private static void breakFlushSlot(Path dir, int slot, Random random) throws IOException {
    for (SegmentFile segment : SegmentFile.list(dir).values()) {
      int start = SegmentDescriptor.FLUSH_SLOT_OFFSET + slot * SegmentDescriptor.FLUSH_SLOT_LENGTH;
      flipByte(segment.path, start + random.nextInt(SegmentDescriptor.FLUSH_SLOT_LENGTH), random);
    }
  }

  @Test
  void aTornFlushSlotFallsBackToTheOtherSlot() throws Exception {
    for (int slot = 0; slot < 2; slot++) {
      for (boolean crashed : new boolean[] {false, true}) {
        Random random = new Random(slot * 2 + (crashed ? 1 : 0));
        Map<Long, Entry> written = new TreeMap<>();
        Path dir = flushedJournal(newRoot().resolve("journal"), random, 25, crashed, written);
        breakFlushSlot(dir, slot, random);

        SegmentedJournal journal = openForTest(dir, JournalConfig.OpenVerification.TAIL);
        assertContents(journal, written, "slot " + slot + " torn, crashed=" + crashed);
        long next = journal.append(Long.MAX_VALUE / 2, new UnsafeBuffer(new byte[] {1, 2, 3}));
        written.put(next, new Entry(next, Long.MAX_VALUE / 2, new byte[] {1, 2, 3}));
        journal.close();
        assertContents(
            openForTest(dir, JournalConfig.OpenVerification.FULL),
            written,
            "slot " + slot + " torn, reopened after an append");
      }
    }
  }

  @Test
  void withBothFlushSlotsBrokenTheJournalRecoversAsAfterACrash() throws Exception {
    Random random = new Random(3);
    Map<Long, Entry> written = new TreeMap<>();
    Path dir = flushedJournal(newRoot().resolve("journal"), random, 10, false, written);
    breakFlushSlot(dir, 0, random);
    breakFlushSlot(dir, 1, random);

    // Nothing vouches for any entry, so every frame is checked as a tail; all are intact.
    SegmentedJournal journal = openForTest(dir, JournalConfig.OpenVerification.TAIL);

    assertContents(journal, written, "both flush slots broken");
    assertThat(journal.getLastFlushedIndex()).isEqualTo(journal.getLastIndex());
  }

  // ================================================================ leftover files

  @Test
  void aLeftoverSpareOfAnyKindIsHandled() throws Exception {
    for (String kind : new String[] {"zeros", "short", "empty"}) {
      Random random = new Random(kind.hashCode());
      Map<Long, Entry> written = new TreeMap<>();
      Path dir = flushedJournal(newRoot().resolve("journal"), random, 20, true, written);
      Path spare = dir.resolve(NAME + ".spare");
      Files.deleteIfExists(spare);
      switch (kind) {
        case "zeros" -> Files.write(spare, new byte[SMALL_SEGMENT]);
        case "short" -> Files.write(spare, new byte[SMALL_SEGMENT / 3]);
        default -> Files.write(spare, new byte[0]);
      }
      SegmentedJournal journal = openForTest(dir, JournalConfig.OpenVerification.TAIL);
      assertContents(journal, written, "leftover spare: " + kind);
      appendAcrossSegments(journal, written, random, 15);
      journal.close();
      assertContents(
          openForTest(dir, JournalConfig.OpenVerification.FULL),
          written,
          "leftover spare " + kind + ", after appends across segments and a reopen");
    }
  }

  /**
   * A crash after a roll whose rename (spare to segment) did not reach the disk, while the new
   * segment's pages did: the spare file holds a descriptor and frames. Using it as the next segment
   * as if it were zeroed would let its stale frames reappear after the new ones.
   */
  @Test
  void aLeftoverSpareHoldingFramesDoesNotResurrectThem() throws Exception {
    int perSegment =
        (SMALL_SEGMENT - SegmentDescriptor.LENGTH) / FrameLayout.frameLength(FIXED_SIZE);
    Path root = newRoot();
    Path live = root.resolve("live");
    Map<Long, Entry> written = new TreeMap<>();
    SegmentedJournal journal = openForTest(live, JournalConfig.OpenVerification.TAIL);
    appendFixed(journal, written, 1, 2, 1);
    journal.flush();
    // Fill the flushed segment and go on into segment 2, without a flush.
    appendFixed(journal, written, 3, perSegment - 2 + 6, 1);
    assertThat(journal.segmentCount()).isEqualTo(2);
    Path crash = root.resolve("crash");
    Files.createDirectories(crash);
    JournalPropertyTest.copyDirectory(live, crash);
    journal.close();
    // The rename of the spare to journal-2.log did not persist, but the pages written through
    // the mapping did: the spare file is what journal-2.log was.
    Files.deleteIfExists(crash.resolve(NAME + ".spare"));
    Files.move(crash.resolve(NAME + "-2.log"), crash.resolve(NAME + ".spare"));
    written.keySet().removeIf(index -> index > perSegment);

    SegmentedJournal recovered = openForTest(crash, JournalConfig.OpenVerification.TAIL);
    assertContents(recovered, written, "after the crash");
    // Two new entries of the same size land exactly where the stale entries of segment 2 were.
    appendFixed(recovered, written, perSegment + 1, 2, 2);
    recovered.close();

    assertContents(
        openForTest(crash, JournalConfig.OpenVerification.TAIL),
        written,
        "after two appends into a segment made from a leftover spare that held frames");
  }

  @Test
  void leftoverDeletedSegmentsAreRemoved() throws Exception {
    Random random = new Random(5);
    Path root = newRoot();
    Path dir = root.resolve("journal");
    Map<Long, Entry> written = new TreeMap<>();
    SegmentedJournal journal = openForTest(dir, JournalConfig.OpenVerification.TAIL);
    appendAcrossSegments(journal, written, random, 40);
    TreeMap<Long, SegmentFile> before = SegmentFile.list(dir);
    assertThat(before).hasSizeGreaterThan(3);
    SegmentFile oldest = before.firstEntry().getValue();
    byte[] oldestBytes = Files.readAllBytes(oldest.path);
    long secondFirst = before.higherEntry(oldest.id).getValue().firstIndex;
    journal.deleteUntil(secondFirst);
    written.keySet().removeIf(index -> index < secondFirst);
    journal.flush();
    // A crash between the rename to *.deleted and the unlink, once after compaction and once
    // with an unrelated stale leftover.
    Path crash = root.resolve("crash");
    Files.createDirectories(crash);
    JournalPropertyTest.copyDirectory(dir, crash);
    journal.close();
    Path leftover = crash.resolve(oldest.path.getFileName() + ".deleted");
    Files.write(leftover, oldestBytes);
    Path stale = crash.resolve(NAME + "-999.log.deleted");
    Files.write(stale, new byte[100]);

    SegmentedJournal recovered = openForTest(crash, JournalConfig.OpenVerification.FULL);
    assertThat(leftover).doesNotExist();
    assertThat(stale).doesNotExist();
    assertThat(recovered.getFirstIndex()).isEqualTo(secondFirst);
    assertContents(recovered, written, "after leftover *.deleted files");
    appendAcrossSegments(recovered, written, random, 10);
    recovered.close();
    assertContents(
        openForTest(crash, JournalConfig.OpenVerification.TAIL), written, "after a reopen");
  }

  // ================================================================ specific crash states

  /**
   * Entries 1 and 2 flushed, then 3 to {@code 2 * perSegment + 2} appended without a flush, so
   * segment 1 is full, segment 2 too and segment 3 holds two entries. Returns the directories
   * "flushed" (the durable state) and "cache" (the page cache) as {@code [flushed, cache]}.
   */
  private Path[] twoRollsAfterAFlush(Path root, Map<Long, Entry> written) throws IOException {
    int perSegment = entriesPerSmallSegment();
    Path live = root.resolve("live");
    SegmentedJournal journal = openForTest(live, JournalConfig.OpenVerification.TAIL);
    appendFixed(journal, written, 1, 2, 1);
    journal.flush();
    Path flushed = root.resolve("flushed");
    Files.createDirectories(flushed);
    JournalPropertyTest.copyDirectory(live, flushed);
    appendFixed(journal, written, 3, 2 * perSegment, 1);
    assertThat(journal.segmentCount()).isEqualTo(3);
    Path cache = root.resolve("cache");
    Files.createDirectories(cache);
    JournalPropertyTest.copyDirectory(live, cache);
    journal.close();
    return new Path[] {flushed, cache};
  }

  private static int entriesPerSmallSegment() {
    return (SMALL_SEGMENT - SegmentDescriptor.LENGTH) / FrameLayout.frameLength(FIXED_SIZE);
  }

  /** Replaces one page of {@code file} with the same page of {@code from} (zeros if null). */
  private static void revertPage(Path file, Path from, int page) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    byte[] old = from == null ? new byte[bytes.length] : Files.readAllBytes(from);
    int start = page * PAGE;
    System.arraycopy(old, start, bytes, start, Math.min(PAGE, bytes.length - start));
    Files.write(file, bytes);
  }

  /**
   * Two rolls after the last flush, and the kernel wrote back none of the pages of the two new
   * segments before the crash (their renames from the spare did reach the disk): both are still all
   * zeros. Nothing flushed is in them, so they are a torn tail to cut, not corruption.
   */
  @Test
  void newSegmentsWhosePagesNeverReachedTheDiskAreCut() throws Exception {
    Map<Long, Entry> written = new TreeMap<>();
    Path[] states = twoRollsAfterAFlush(newRoot(), written);
    Path crash = states[1];
    revertPage(crash.resolve(NAME + "-2.log"), null, 0);
    revertPage(crash.resolve(NAME + "-2.log"), null, 1);
    revertPage(crash.resolve(NAME + "-3.log"), null, 0);
    revertPage(crash.resolve(NAME + "-3.log"), null, 1);
    int perSegment = entriesPerSmallSegment();
    written.keySet().removeIf(index -> index > perSegment);

    Throwable thrown =
        catchThrowable(
            () ->
                assertContents(
                    openForTest(crash, JournalConfig.OpenVerification.TAIL),
                    written,
                    "after a crash that lost every page of segments 2 and 3"));

    assertThat(thrown).as("open after losing only unflushed segments' pages").isNull();
  }

  /**
   * The page holding segment 1's descriptor (with the hint written when it was sealed) and its
   * entries 3 and 4 was not written back after the flush; segments 2 and 3 were. Segment 1 now ends
   * at entry 2, so segment 2 (first index 8) no longer follows on; nothing flushed is in it.
   */
  @Test
  void aNewSegmentThatNoLongerFollowsTheRecoveredEndIsCut() throws Exception {
    Map<Long, Entry> written = new TreeMap<>();
    Path[] states = twoRollsAfterAFlush(newRoot(), written);
    Path crash = states[1];
    revertPage(crash.resolve(NAME + "-1.log"), states[0].resolve(NAME + "-1.log"), 0);
    written.keySet().removeIf(index -> index > 2);

    Throwable thrown =
        catchThrowable(
            () ->
                assertContents(
                    openForTest(crash, JournalConfig.OpenVerification.TAIL),
                    written,
                    "after a crash that lost segment 1's first page"));

    assertThat(thrown).as("open after losing only unflushed pages").isNull();
  }

  /**
   * As above, but only segment 2 was started (it is the last segment, so open discards it). Segment
   * 1 keeps entries 5 to 7 on its second page, behind the hole left by its lost first page. New
   * entries 3 and 4 of the same size end exactly where the stale entry 5 begins: the stale frames
   * must not become part of the journal.
   */
  @Test
  void staleFramesBehindAHoleInTheRecoveredLastSegmentDoNotReappear() throws Exception {
    int perSegment = entriesPerSmallSegment();
    Path root = newRoot();
    Path live = root.resolve("live");
    Map<Long, Entry> written = new TreeMap<>();
    SegmentedJournal journal = openForTest(live, JournalConfig.OpenVerification.TAIL);
    appendFixed(journal, written, 1, 2, 1);
    journal.flush();
    Path flushed = root.resolve("flushed");
    Files.createDirectories(flushed);
    JournalPropertyTest.copyDirectory(live, flushed);
    appendFixed(journal, written, 3, perSegment, 1);
    assertThat(journal.segmentCount()).isEqualTo(2);
    Path crash = root.resolve("crash");
    Files.createDirectories(crash);
    JournalPropertyTest.copyDirectory(live, crash);
    journal.close();
    revertPage(crash.resolve(NAME + "-1.log"), flushed.resolve(NAME + "-1.log"), 0);
    written.keySet().removeIf(index -> index > 2);

    SegmentedJournal recovered = openForTest(crash, JournalConfig.OpenVerification.TAIL);
    assertContents(recovered, written, "after the crash");
    appendFixed(recovered, written, 3, 2, 2);
    recovered.close();

    assertContents(
        openForTest(crash, JournalConfig.OpenVerification.TAIL),
        written,
        "after appending entries 3 and 4 again and a clean reopen");
  }

  /**
   * Segment 1 is full and flushed; the roll to segment 2 happened, but segment 2's first page never
   * reached the disk, so open deletes it. Segment 1, whose hint is covered by the flushed index, is
   * trusted without a scan and becomes the writer's segment again: the journal must still know the
   * last asqn of its entries (for the asqn check and for the sparse index of new entries).
   */
  @Test
  void aTrustedSegmentThatBecomesTheLastOneAgainKeepsItsAsqns() throws Exception {
    int perSegment = entriesPerSmallSegment();
    Path root = newRoot();
    Path live = root.resolve("live");
    SegmentedJournal journal = openForTest(live, JournalConfig.OpenVerification.TAIL);
    byte[] data = new byte[FIXED_SIZE];
    for (int i = 1; i <= perSegment; i++) {
      journal.append(i * 10L, new UnsafeBuffer(data));
    }
    journal.flush();
    journal.append((perSegment + 1) * 10L, new UnsafeBuffer(data)); // rolls to segment 2
    assertThat(journal.segmentCount()).isEqualTo(2);
    Path crash = root.resolve("crash");
    Files.createDirectories(crash);
    JournalPropertyTest.copyDirectory(live, crash);
    journal.close();
    revertPage(crash.resolve(NAME + "-2.log"), null, 0);

    SegmentedJournal recovered = openForTest(crash, JournalConfig.OpenVerification.TAIL);
    assertThat(recovered.getLastIndex()).isEqualTo(perSegment);
    long lastAsqn = perSegment * 10L;
    assertThat(catchThrowable(() -> recovered.append(lastAsqn, new UnsafeBuffer(data))))
        .as("appending asqn %d again after recovery", lastAsqn)
        .isInstanceOf(JournalException.InvalidAsqn.class);
    for (int i = 0; i < 3; i++) {
      recovered.append(Journal.ASQN_IGNORE, new UnsafeBuffer(data));
    }
    try (JournalReader reader = recovered.openReader()) {
      assertThat(reader.seekToAsqn(lastAsqn + 5))
          .as("seekToAsqn(%d) after appending entries without asqn", lastAsqn + 5)
          .isEqualTo(perSegment);
    }
  }

  // ================================================================ helpers

  /** Small segments: several per test, about 3 to 8 entries each with the sizes used here. */
  private static final int SMALL_SEGMENT = 8 * 1024;

  private Path newRoot() throws IOException {
    Path root = Files.createTempDirectory("journal-crash");
    roots.add(root);
    return root;
  }

  private static JournalConfig config(
      Path dir, int segmentSize, int density, JournalConfig.OpenVerification verification) {
    return JournalConfig.builder(dir)
        .name(NAME)
        .segmentSizeBytes(segmentSize)
        .indexDensity(density)
        .openVerification(verification)
        .freeDiskSpaceReserveBytes(0)
        .fitMaxEntrySizeToSegment()
        .build();
  }

  private SegmentedJournal openForTest(Path dir, JournalConfig.OpenVerification verification) {
    SegmentedJournal journal = SegmentedJournal.open(config(dir, SMALL_SEGMENT, 3, verification));
    toClose.add(journal);
    return journal;
  }

  private Path flushedJournal(Path dir, Random random, int entries, boolean crashed)
      throws IOException {
    return flushedJournal(dir, random, entries, crashed, new TreeMap<>());
  }

  /**
   * A journal of {@code entries} flushed entries. With {@code crashed}, the returned directory is a
   * copy taken while the journal was open (so it says "not cleanly shut down"); else the journal
   * was closed cleanly.
   */
  private Path flushedJournal(
      Path dir, Random random, int entries, boolean crashed, Map<Long, Entry> written)
      throws IOException {
    SegmentedJournal journal = openForTest(dir, JournalConfig.OpenVerification.TAIL);
    appendAcrossSegments(journal, written, random, entries);
    journal.flush();
    // With the default FlushRecordSync.SHARED the record vouches for the flush before the last;
    // an idle flush makes it exact (see lastFlushIsCutNotRefusedWithASharedFlushRecord).
    journal.flush();
    if (!crashed) {
      journal.close();
      return dir;
    }
    Path copy = dir.resolveSibling(dir.getFileName() + "-crashed");
    Files.createDirectories(copy);
    JournalPropertyTest.copyDirectory(dir, copy);
    journal.close();
    return copy;
  }

  private static void appendAcrossSegments(
      Journal journal, Map<Long, Entry> written, Random random, int count) {
    long asqn =
        written.values().stream()
                .mapToLong(Entry::asqn)
                .filter(a -> a != Journal.ASQN_IGNORE)
                .max()
                .orElse(0)
            + 1;
    for (int i = 0; i < count; i++) {
      byte[] data = new byte[random.nextInt(10) == 0 ? 0 : 1 + random.nextInt(2000)];
      random.nextBytes(data);
      long entryAsqn = random.nextInt(6) == 0 ? Journal.ASQN_IGNORE : asqn++;
      long index = journal.append(entryAsqn, new UnsafeBuffer(data));
      written.put(index, new Entry(index, entryAsqn, data));
    }
  }

  private static final int FIXED_SIZE = 1000;

  /** Appends {@code count} entries of {@link #FIXED_SIZE} bytes, filled by index and generation. */
  private static void appendFixed(
      Journal journal, Map<Long, Entry> written, long firstIndex, int count, int generation) {
    for (long index = firstIndex; index < firstIndex + count; index++) {
      byte[] data = new byte[FIXED_SIZE];
      Arrays.fill(data, (byte) (index * 7 + generation));
      assertThat(journal.append(Journal.ASQN_IGNORE, new UnsafeBuffer(data))).isEqualTo(index);
      written.put(index, new Entry(index, Journal.ASQN_IGNORE, data));
    }
  }

  private static void flipByte(Path file, int offset, Random random) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, offset);
      one.put(0, (byte) (one.get(0) ^ (1 + random.nextInt(255))));
      one.clear();
      channel.write(one, offset);
    }
  }

  private static void assertCorrupted(Throwable thrown, Path file, long offset, String context) {
    assertThat(thrown)
        .as("expected CorruptedJournal for %s", context)
        .isInstanceOf(JournalException.CorruptedJournal.class);
    JournalException.CorruptedJournal corrupted = (JournalException.CorruptedJournal) thrown;
    assertThat(corrupted.file()).as("file named (%s)", context).isEqualTo(file);
    assertThat(corrupted.offset()).as("offset named (%s)", context).isEqualTo(offset);
    assertThat(corrupted.getMessage())
        .as(context)
        .contains(file.toString())
        .contains("at offset " + offset);
  }

  static void assertContents(Journal journal, Map<Long, Entry> expected, String context) {
    long first = expected.isEmpty() ? journal.getFirstIndex() : expected.keySet().iterator().next();
    long last = first + expected.size() - 1;
    assertThat(journal.getFirstIndex()).as("first index " + context).isEqualTo(first);
    assertThat(journal.getLastIndex()).as("last index " + context).isEqualTo(last);
    try (JournalReader reader = journal.openReader()) {
      for (long index = first; index <= last; index++) {
        assertThat(reader.hasNext()).as("hasNext at %d %s", index, context).isTrue();
        assertRecord(reader.next(), expected.get(index), context);
      }
      assertThat(reader.hasNext()).as("no entry after %d %s", last, context).isFalse();
    }
  }

  static void assertRecord(JournalRecord record, Entry expected, String context) {
    assertThat(expected).as("entry %d is expected %s", record.index(), context).isNotNull();
    assertThat(record.index()).as(context).isEqualTo(expected.index);
    assertThat(record.asqn())
        .as("asqn of entry %d %s", expected.index, context)
        .isEqualTo(expected.asqn);
    byte[] bytes = new byte[record.data().capacity()];
    record.data().getBytes(0, bytes);
    assertThat(Arrays.equals(bytes, expected.data))
        .as(
            "bytes of entry %d (%d bytes, expected %d) %s",
            expected.index, bytes.length, expected.data.length, context)
        .isTrue();
  }

  record Entry(long index, long asqn, byte[] data) {}

  record Frame(long segmentId, long index, int position, int length) {
    int checksummedLength() {
      return FrameLayout.HEADER_LENGTH + length;
    }
  }

  /** A segment file as parsed by the test, independently of the journal's code. */
  static final class SegmentFile {
    final Path path;
    final long id;
    final long firstIndex;
    final List<Frame> frames = new ArrayList<>();
    private int end = SegmentDescriptor.LENGTH;

    private SegmentFile(Path path, long id, long firstIndex) {
      this.path = path;
      this.id = id;
      this.firstIndex = firstIndex;
    }

    int end() {
      return end;
    }

    static TreeMap<Long, SegmentFile> list(Path dir) throws IOException {
      TreeMap<Long, SegmentFile> files = new TreeMap<>();
      try (Stream<Path> paths = Files.list(dir)) {
        for (Path path : paths.toList()) {
          Matcher matcher = SEGMENT.matcher(path.getFileName().toString());
          if (matcher.matches()) {
            long id = Long.parseLong(matcher.group(1));
            files.put(id, parse(path, id));
          }
        }
      }
      return files;
    }

    private static SegmentFile parse(Path path, long id) throws IOException {
      byte[] bytes = Files.readAllBytes(path);
      UnsafeBuffer buffer = new UnsafeBuffer(bytes);
      SegmentFile file =
          new SegmentFile(path, id, buffer.getLong(SegmentDescriptor.FIRST_INDEX_OFFSET));
      int position = SegmentDescriptor.LENGTH;
      long index = file.firstIndex;
      while (position + FrameLayout.HEADER_LENGTH <= bytes.length
          && buffer.getInt(position + FrameLayout.MARKER_OFFSET) == FrameLayout.MARKER_V1
          && buffer.getLong(position + FrameLayout.INDEX_OFFSET) == index) {
        int length = buffer.getInt(position + FrameLayout.LENGTH_OFFSET);
        file.frames.add(new Frame(id, index, position, length));
        position += FrameLayout.frameLength(length);
        index++;
      }
      file.end = position;
      return file;
    }

    /** The frame whose checked bytes (header and data, not padding) include {@code offset}. */
    Frame frameCovering(int offset) {
      for (Frame frame : frames) {
        if (offset >= frame.position && offset < frame.position + frame.checksummedLength()) {
          return frame;
        }
      }
      return null;
    }
  }
}
