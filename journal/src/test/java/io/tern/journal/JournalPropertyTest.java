package io.tern.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Random sequences of operations applied both to a {@link SegmentedJournal} (with tiny segments and
 * a dense sparse index, so rolls, boundary cases and index lookups happen all the time) and to a
 * simple in-memory model. After every operation the journal's first/last index, segment count,
 * every entry (index, asqn, bytes), seeks and asqn seeks must match the model.
 *
 * <p>The model reproduces the segment layout too (frame sizes are deterministic), so it knows
 * exactly which entries {@code deleteUntil} keeps.
 *
 * <p>On failure jqwik prints the seed and the shrunk sequence of operations; re-run one with
 * {@code @Property(seed = "...")}.
 */
class JournalPropertyTest {
  private static final int SEGMENT_SIZE = 16 * 1024;
  private static final int CAPACITY = SEGMENT_SIZE - SegmentDescriptor.LENGTH;
  private static final int MAX_ENTRY =
      (SEGMENT_SIZE - SegmentDescriptor.LENGTH - FrameLayout.HEADER_LENGTH)
          & ~(FrameLayout.ALIGNMENT - 1);
  private static final long NONE = -1;

  /**
   * Directories of tries that have not cleaned up yet. jqwik shrinks on a separate thread that it
   * abandons when shrinking runs out of time; such a try never reaches its cleanup, so whatever is
   * left is deleted when the JVM exits.
   */
  private static final Set<Path> LEFT_BEHIND = ConcurrentHashMap.newKeySet();

  private static volatile boolean exiting;

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  exiting = true;
                  for (Path dir : LEFT_BEHIND) {
                    try {
                      deleteRecursively(dir);
                    } catch (RuntimeException e) {
                      // Best effort at exit.
                    }
                  }
                },
                "journal-property-cleanup"));
  }

  // ---------------------------------------------------------------- operations

  /** One step of a scenario. Index arguments are picks resolved against the state at run time. */
  sealed interface Op
      permits Append, AppendBatch, Flush, DeleteAfter, DeleteUntil, Reset, Reopen, CrashReopen {}

  /** One entry of {@code size} bytes derived from {@code contentSeed}. */
  record Append(int size, long contentSeed, boolean ignoreAsqn, int asqnGap) implements Op {}

  /** {@code count} entries of up to {@code maxSize} bytes; a quick way to fill segments. */
  record AppendBatch(int count, int maxSize, long seed) implements Op {}

  record Flush() implements Op {}

  /**
   * strategy: 0 uniform in [first-1, last], 1 to 3 a segment's last index (segment boundaries are
   * where most edge cases are), 4 first-1, 5 last-1.
   */
  record DeleteAfter(int strategy, int pick) implements Op {}

  /** strategy: 0 uniform in [first-1, last+2], 1 a segment's first index (+-1), 2 far ahead. */
  record DeleteUntil(int strategy, int pick) implements Op {}

  /** Resets to {@code 1 + pick % (last + 40)}: below, at or above the current range. */
  record Reset(int pick) implements Op {}

  /** Clean close and open. */
  record Reopen() implements Op {}

  /**
   * Copies the directory while the journal is open (the page cache holds every append), abandons
   * the journal and opens the copy: crash recovery with nothing lost.
   */
  record CrashReopen() implements Op {}

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<Integer> size =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(0, 64)),
            Tuple.of(8, Arbitraries.integers().between(0, 3 * 1024)),
            Tuple.of(1, Arbitraries.integers().between(MAX_ENTRY - 64, MAX_ENTRY)));
    Arbitrary<Op> append =
        Combinators.combine(
                size,
                Arbitraries.longs(),
                Arbitraries.integers().between(0, 99).map(p -> p < 15),
                Arbitraries.integers().between(1, 3))
            .as(Append::new);
    Arbitrary<Op> batch =
        Combinators.combine(
                Arbitraries.integers().between(1, 25),
                Arbitraries.integers().between(0, 3 * 1024),
                Arbitraries.longs())
            .as(AppendBatch::new);
    Arbitrary<Integer> pick = Arbitraries.integers().between(0, 1_000_000);
    Arbitrary<Op> deleteAfter =
        Combinators.combine(Arbitraries.integers().between(0, 5), pick).as(DeleteAfter::new);
    Arbitrary<Op> deleteUntil =
        Combinators.combine(Arbitraries.integers().between(0, 2), pick).as(DeleteUntil::new);
    Arbitrary<Op> reset = pick.map(Reset::new);
    return Arbitraries.frequencyOf(
            Tuple.of(25, append),
            Tuple.of(10, batch),
            Tuple.of(6, Arbitraries.just(new Flush())),
            Tuple.of(8, deleteAfter),
            Tuple.of(5, deleteUntil),
            Tuple.of(1, reset),
            Tuple.of(7, Arbitraries.just(new Reopen())),
            Tuple.of(3, Arbitraries.just(new CrashReopen())))
        .list()
        .ofMinSize(1)
        .ofMaxSize(100);
  }

  /** Mostly the default TAIL, which trusts sealed segments and so exercises lazy indexing. */
  @Provide
  Arbitrary<JournalConfig.OpenVerification> verifications() {
    return Arbitraries.frequency(
        Tuple.of(3, JournalConfig.OpenVerification.TAIL),
        Tuple.of(1, JournalConfig.OpenVerification.FULL));
  }

  // ---------------------------------------------------------------- the property

  @Property(tries = 200)
  void journalBehavesLikeTheModel(
      @ForAll("operations") List<Op> ops,
      @ForAll @IntRange(min = 1, max = 5) int indexDensity,
      @ForAll("verifications") JournalConfig.OpenVerification verification,
      @ForAll long checkSeed)
      throws IOException {
    Run run = new Run(indexDensity, verification, new Random(checkSeed));
    try {
      run.open();
      run.verify("after open");
      for (int step = 0; step < ops.size(); step++) {
        Op op = ops.get(step);
        run.apply(op);
        run.verify("after step " + step + " " + op);
      }
      run.reopen();
      run.verify("after the final clean reopen");
    } finally {
      run.cleanUp();
    }
  }

  // ---------------------------------------------------------------- one try

  private static final class Run {
    private final int indexDensity;
    private final JournalConfig.OpenVerification verification;
    private final Random random;
    private final Model model = new Model();
    private final List<Path> directories = new ArrayList<>();
    private Path directory;
    private SegmentedJournal journal;

    Run(int indexDensity, JournalConfig.OpenVerification verification, Random random)
        throws IOException {
      this.indexDensity = indexDensity;
      this.verification = verification;
      this.random = random;
      this.directory = newDirectory();
    }

    private Path newDirectory() throws IOException {
      Path dir = Files.createTempDirectory("journal-property");
      directories.add(dir);
      LEFT_BEHIND.add(dir);
      if (exiting) {
        deleteRecursively(dir);
        throw new IllegalStateException("the JVM is exiting");
      }
      return dir;
    }

    void open() {
      journal =
          SegmentedJournal.open(
              JournalConfig.builder(directory)
                  .segmentSizeBytes(SEGMENT_SIZE)
                  .indexDensity(indexDensity)
                  .openVerification(verification)
                  .freeDiskSpaceReserveBytes(0)
                  .fitMaxEntrySizeToSegment()
                  .build());
      assertThat(journal.config().maxEntrySizeBytes()).isEqualTo(MAX_ENTRY);
    }

    void reopen() {
      journal.close();
      open();
      model.reopened();
    }

    void apply(Op op) throws IOException {
      if (op instanceof Append a) {
        append(a.size(), a.contentSeed(), a.ignoreAsqn(), a.asqnGap());
      } else if (op instanceof AppendBatch b) {
        SplittableRandom r = new SplittableRandom(b.seed());
        for (int i = 0; i < b.count(); i++) {
          append(r.nextInt(b.maxSize() + 1), r.nextLong(), r.nextInt(10) == 0, 1 + r.nextInt(3));
        }
      } else if (op instanceof Flush) {
        journal.flush();
        assertThat(journal.getLastFlushedIndex()).isEqualTo(model.lastIndex());
      } else if (op instanceof DeleteAfter d) {
        deleteAfter(d);
      } else if (op instanceof DeleteUntil d) {
        deleteUntil(d);
      } else if (op instanceof Reset r) {
        long nextIndex = 1 + r.pick() % (model.lastIndex() + 40);
        journal.reset(nextIndex);
        model.reset(nextIndex);
        assertThat(journal.getLastFlushedIndex()).isEqualTo(nextIndex - 1);
      } else if (op instanceof Reopen) {
        reopen();
        assertThat(journal.getLastFlushedIndex()).isEqualTo(model.lastIndex());
      } else if (op instanceof CrashReopen) {
        crashReopen();
      } else {
        throw new AssertionError("unknown op " + op);
      }
    }

    private void append(int size, long contentSeed, boolean ignoreAsqn, int asqnGap) {
      byte[] data = content(size, contentSeed);
      long asqn = ignoreAsqn ? Journal.ASQN_IGNORE : Math.max(model.asqnBound, -1) + asqnGap;
      long expectedIndex = model.lastIndex() + 1;
      long index = journal.append(asqn, new UnsafeBuffer(data));
      assertThat(index).as("index returned by append").isEqualTo(expectedIndex);
      model.append(asqn, data);
    }

    private void deleteAfter(DeleteAfter d) {
      long first = model.firstIndex;
      long last = model.lastIndex();
      long index =
          switch (d.strategy()) {
            case 0 -> first - 1 + d.pick() % (last - first + 2);
            case 1, 2, 3 -> model.segmentLastIndex(d.pick() % model.segments.size());
            case 4 -> first - 1;
            default -> Math.max(first - 1, last - 1);
          };
      long flushedBefore = journal.getLastFlushedIndex();
      journal.deleteAfter(index);
      model.deleteAfter(index);
      assertThat(journal.getLastFlushedIndex())
          .as("deleteAfter(%d) lowers the flushed index", index)
          .isEqualTo(index < last ? Math.min(flushedBefore, index) : flushedBefore);
    }

    private void deleteUntil(DeleteUntil d) {
      long first = model.firstIndex;
      long last = model.lastIndex();
      long index =
          switch (d.strategy()) {
            case 0 -> first - 1 + d.pick() % (last - first + 4);
            case 1 -> model.segments.get(d.pick() % model.segments.size()).first + d.pick() % 3 - 1;
            default -> last + 1 + d.pick() % 50;
          };
      journal.deleteUntil(index);
      model.deleteUntil(index);
      assertThat(journal.getFirstIndex())
          .as("deleteUntil(%d) keeps the entry at the index", index)
          .isLessThanOrEqualTo(Math.max(first, Math.min(index, last + 1)));
    }

    private void crashReopen() throws IOException {
      Path copy = newDirectory();
      copyDirectory(directory, copy);
      // Closing the abandoned journal now does not change the copy.
      journal.close();
      directory = copy;
      open();
      model.reopened();
      assertThat(journal.getLastFlushedIndex()).isEqualTo(model.lastIndex());
    }

    /** An asqn that does not increase must be rejected without changing anything. */
    private void badAsqn(String context) {
      long lastIndex = journal.getLastIndex();
      assertThat(catchThrowable(() -> journal.append(-2, new UnsafeBuffer(new byte[1]))))
          .as("append with asqn -2 " + context)
          .isInstanceOf(JournalException.InvalidAsqn.class);
      long maxPresent = model.maxPresentAsqn();
      if (maxPresent != NONE) {
        assertThat(catchThrowable(() -> journal.append(maxPresent, new UnsafeBuffer(new byte[1]))))
            .as(
                "append with asqn %d, the largest asqn among the journal's entries, must be"
                    + " rejected (InvalidAsqn) %s",
                maxPresent, context)
            .isInstanceOf(JournalException.InvalidAsqn.class);
      }
      assertThat(journal.getLastIndex())
          .as("lastIndex after rejected appends")
          .isEqualTo(lastIndex);
    }

    // ---------------------------------------------------------------- checks

    void verify(String when) {
      String context = when + " (model " + model + ")";
      assertThat(journal.getFirstIndex()).as("firstIndex " + context).isEqualTo(model.firstIndex);
      assertThat(journal.getLastIndex()).as("lastIndex " + context).isEqualTo(model.lastIndex());
      assertThat(journal.isEmpty()).as("isEmpty " + context).isEqualTo(model.entries.isEmpty());
      assertThat(journal.segmentCount())
          .as("segment count " + context)
          .isEqualTo(model.segments.size());
      assertThat(journal.getLastFlushedIndex())
          .as("lastFlushedIndex " + context)
          .isLessThanOrEqualTo(model.lastIndex());
      try (JournalReader reader = journal.openReader()) {
        assertThat(reader.getNextIndex()).as("new reader " + context).isEqualTo(model.firstIndex);
        for (Entry expected : model.entries) {
          assertThat(reader.hasNext()).as("hasNext at %d %s", expected.index, context).isTrue();
          assertEntry(reader.next(), expected, "full read " + context);
        }
        assertThat(reader.hasNext()).as("hasNext after the last entry " + context).isFalse();
        verifySeeks(reader, context);
        verifyAsqnSeeks(reader, context);
      }
      badAsqn(context);
    }

    private void verifySeeks(JournalReader reader, String context) {
      long first = model.firstIndex;
      long last = model.lastIndex();
      List<Long> targets = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        targets.add(first - 2 + random.nextInt((int) (last - first + 5)));
      }
      for (ModelSegment s : model.segments) {
        targets.add(s.first - 1);
        targets.add(s.first);
      }
      targets.add(last);
      targets.add(last + 1);
      targets.add(Long.MIN_VALUE / 2);
      targets.add(Long.MAX_VALUE / 2);
      for (long target : targets) {
        long expected = Math.max(first, Math.min(target, last + 1));
        assertThat(reader.seek(target)).as("seek(%d) %s", target, context).isEqualTo(expected);
        assertThat(reader.getNextIndex()).isEqualTo(expected);
        if (expected <= last) {
          assertEntry(reader.next(), model.get(expected), "after seek(" + target + ") " + context);
          if (expected + 1 <= last) {
            assertEntry(reader.next(), model.get(expected + 1), "after seek+1 " + context);
          }
        } else {
          assertThat(reader.hasNext()).as("seek(%d) to the end %s", target, context).isFalse();
        }
      }
      long expectedLast = Math.max(first, last);
      assertThat(reader.seekToLast()).as("seekToLast " + context).isEqualTo(expectedLast);
      assertThat(reader.seekToFirst()).as("seekToFirst " + context).isEqualTo(first);
    }

    private void verifyAsqnSeeks(JournalReader reader, String context) {
      List<Long> targets = new ArrayList<>(List.of(-1L, 0L, 1L, Long.MAX_VALUE));
      List<Entry> withAsqn =
          model.entries.stream().filter(e -> e.asqn != Journal.ASQN_IGNORE).toList();
      for (int i = 0; i < 6 && !withAsqn.isEmpty(); i++) {
        long asqn = withAsqn.get(random.nextInt(withAsqn.size())).asqn;
        targets.add(asqn + random.nextInt(3) - 1);
      }
      if (!withAsqn.isEmpty()) {
        targets.add(withAsqn.get(0).asqn);
        targets.add(withAsqn.get(0).asqn - 1);
        targets.add(withAsqn.get(withAsqn.size() - 1).asqn);
      }
      for (long target : targets) {
        long expected = model.asqnFloorIndex(target);
        assertThat(reader.seekToAsqn(target))
            .as("seekToAsqn(%d) %s", target, context)
            .isEqualTo(expected);
        if (expected <= model.lastIndex()) {
          assertEntry(reader.next(), model.get(expected), "after seekToAsqn " + context);
        }
      }
    }

    private static void assertEntry(JournalRecord actual, Entry expected, String context) {
      assertThat(actual.index()).as("index " + context).isEqualTo(expected.index);
      assertThat(actual.asqn())
          .as("asqn of %d %s", expected.index, context)
          .isEqualTo(expected.asqn);
      byte[] bytes = new byte[actual.data().capacity()];
      actual.data().getBytes(0, bytes);
      if (!java.util.Arrays.equals(bytes, expected.data)) {
        fail(
            "data of entry %d differs %s: %d bytes, expected %d",
            expected.index, context, bytes.length, expected.data.length);
      }
    }

    void cleanUp() {
      try {
        if (journal != null) {
          journal.close();
        }
      } finally {
        for (Path dir : directories) {
          deleteRecursively(dir);
          LEFT_BEHIND.remove(dir);
        }
      }
    }
  }

  // ---------------------------------------------------------------- model

  record Entry(long index, long asqn, byte[] data) {}

  /** A segment of the model: its first index and the bytes its frames use. */
  static final class ModelSegment {
    final long first;
    int used;

    ModelSegment(long first) {
      this.first = first;
    }
  }

  static final class Model {
    long firstIndex = 1;
    final List<Entry> entries = new ArrayList<>();
    final List<ModelSegment> segments = new ArrayList<>(List.of(new ModelSegment(1)));

    /** At least the journal's last asqn; the next asqn is above it. */
    long asqnBound = NONE;

    long lastIndex() {
      return firstIndex + entries.size() - 1;
    }

    Entry get(long index) {
      return entries.get((int) (index - firstIndex));
    }

    long segmentLastIndex(int slot) {
      return slot == segments.size() - 1 ? lastIndex() : segments.get(slot + 1).first - 1;
    }

    void append(long asqn, byte[] data) {
      ModelSegment current = segments.get(segments.size() - 1);
      int frame = FrameLayout.frameLength(data.length);
      if (current.used + frame > CAPACITY) {
        current = new ModelSegment(lastIndex() + 1);
        segments.add(current);
      }
      current.used += frame;
      entries.add(new Entry(lastIndex() + 1, asqn, data));
      if (asqn != Journal.ASQN_IGNORE) {
        asqnBound = asqn;
      }
    }

    void deleteAfter(long index) {
      if (index >= lastIndex()) {
        return;
      }
      long floor = Math.max(index, firstIndex);
      while (segments.size() > 1 && segments.get(segments.size() - 1).first > floor) {
        segments.remove(segments.size() - 1);
      }
      while (lastIndex() > index) {
        entries.remove(entries.size() - 1);
      }
      ModelSegment target = segments.get(segments.size() - 1);
      target.used = 0;
      for (Entry e : entries) {
        if (e.index >= target.first) {
          target.used += FrameLayout.frameLength(e.data.length);
        }
      }
      asqnBound = maxPresentAsqn();
    }

    void deleteUntil(long index) {
      if (index <= firstIndex) {
        return;
      }
      while (segments.size() > 1 && segmentLastIndex(0) < index) {
        segments.remove(0);
      }
      long newFirst = segments.get(0).first;
      while (firstIndex < newFirst) {
        entries.remove(0);
        firstIndex++;
      }
      // The journal remembers the last asqn of removed segments until it is reopened.
    }

    void reset(long nextIndex) {
      entries.clear();
      firstIndex = nextIndex;
      segments.clear();
      segments.add(new ModelSegment(nextIndex));
      asqnBound = NONE;
    }

    void reopened() {
      asqnBound = maxPresentAsqn();
    }

    long maxPresentAsqn() {
      long max = NONE;
      for (Entry e : entries) {
        if (e.asqn != Journal.ASQN_IGNORE) {
          max = e.asqn;
        }
      }
      return max;
    }

    /** Index of the entry with the largest asqn <= {@code asqn}; the first index if none. */
    long asqnFloorIndex(long asqn) {
      long best = firstIndex;
      for (Entry e : entries) {
        if (e.asqn != Journal.ASQN_IGNORE && e.asqn <= asqn) {
          best = e.index;
        }
      }
      return best;
    }

    @Override
    public String toString() {
      StringBuilder segs = new StringBuilder();
      for (ModelSegment s : segments) {
        segs.append(segs.length() == 0 ? "" : ",").append(s.first);
      }
      return "first="
          + firstIndex
          + " last="
          + lastIndex()
          + " segmentFirsts=["
          + segs
          + "] asqnBound="
          + asqnBound;
    }
  }

  // ---------------------------------------------------------------- helpers

  static byte[] content(int size, long seed) {
    byte[] data = new byte[size];
    new SplittableRandom(seed).nextBytes(data);
    return data;
  }

  /** Copies the regular files of a journal directory; a file that vanishes meanwhile is skipped. */
  static void copyDirectory(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.list(from)) {
      for (Path file : files.toList()) {
        try {
          Files.copy(file, to.resolve(file.getFileName()));
        } catch (NoSuchFileException e) {
          // The allocator replaced the spare meanwhile; a missing spare is a valid state.
        }
      }
    }
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
