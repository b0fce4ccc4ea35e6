package io.tern.raft.snapshot;

import static io.tern.raft.snapshot.Transfers.CHUNK_BYTES;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.Member;
import io.tern.raft.Membership;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.SnapshotStore.Chunk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotTransferTest {
  @TempDir Path leaderRoot;
  @TempDir Path followerRoot;

  @Test
  void aSnapshotSentChunkByChunkIsInstalledByteIdentical() throws Exception {
    Map<String, byte[]> files = new TreeMap<>();
    files.put("a-empty", new byte[0]);
    files.put("b-large", Transfers.randomBytes(3 * CHUNK_BYTES + 17, 1));
    files.put("c-exact", Transfers.randomBytes(2 * CHUNK_BYTES, 2));
    files.put("d-small", Transfers.randomBytes(5, 3));
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES);
        FileSnapshotStore follower = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(leader, 42, 3, files);
      assertThat(meta.chunkCount()).isEqualTo(1 + 4 + 2 + 1);
      assertThat(leader.latestSizeBytes()).isEqualTo(5L * CHUNK_BYTES + 22);

      Transfers.sendAll(leader, follower, meta);
      assertThat(follower.receivedBytes()).isEqualTo(5L * CHUNK_BYTES + 22);
      assertThat(follower.completeReceive(meta)).isTrue();

      assertThat(follower.latest()).isEqualTo(meta).isEqualTo(leader.latest());
      assertThat(follower.latestDirectory()).isEqualTo(followerRoot.resolve("42-3"));
      assertThat(Transfers.contents(follower.latestDirectory()))
          .containsOnlyKeys(files.keySet())
          .allSatisfy((name, bytes) -> assertThat(bytes).isEqualTo(files.get(name)));
      assertThat(Files.readAllBytes(follower.latestDirectory().resolve("MANIFEST")))
          .isEqualTo(Files.readAllBytes(leader.latestDirectory().resolve("MANIFEST")));
      assertThat(Transfers.rootEntries(followerRoot)).containsExactly("42-3");
    }
    try (FileSnapshotStore reopened = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      assertThat(reopened.latest().index()).isEqualTo(42);
    }
  }

  @Test
  void aReceivedSnapshotKeepsTheConfigurationItWasSentWith() throws Exception {
    Membership membership =
        new Membership(List.of(new Member(1, 1), new Member(2, 1)), List.of(new Member(6, 1)));
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES);
        FileSnapshotStore follower = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      SnapshotMeta meta;
      try (SnapshotWriter writer = leader.newSnapshot(8, 2, membership)) {
        Files.write(writer.directory().resolve("state"), Transfers.randomBytes(100, 9));
        meta = writer.commit();
      }
      // What the follower's core builds from the chunks it received (RaftMessage.SnapshotChunk
      // carries the configuration).
      Transfers.sendAll(leader, follower, meta);
      assertThat(follower.completeReceive(meta)).isTrue();
      assertThat(follower.latest().membership()).isEqualTo(membership);
    }
    try (FileSnapshotStore reopened = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      assertThat(reopened.latest().membership()).isEqualTo(membership);
    }
  }

  @Test
  void blockAlignedChunksAndUnalignedTailsAreInstalledIntact() throws Exception {
    // 64 KiB chunks are block-aligned, so they take the direct I/O path where the file system
    // has one; each file's last piece is not, and goes through the page cache.
    int chunkBytes = 64 * 1024;
    Map<String, byte[]> files = new TreeMap<>();
    files.put("a", Transfers.randomBytes(3 * chunkBytes + 100, 5));
    files.put("b", Transfers.randomBytes(2 * chunkBytes, 6));
    files.put("c", Transfers.randomBytes(7, 7));
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, chunkBytes);
        FileSnapshotStore follower = new FileSnapshotStore(followerRoot, chunkBytes)) {
      SnapshotMeta meta = Transfers.take(leader, 9, 2, files);

      Transfers.sendAll(leader, follower, meta);
      assertThat(follower.completeReceive(meta)).isTrue();

      assertThat(Transfers.contents(follower.latestDirectory()))
          .containsOnlyKeys(files.keySet())
          .allSatisfy((name, bytes) -> assertThat(bytes).isEqualTo(files.get(name)));
      assertThat(Files.readAllBytes(follower.latestDirectory().resolve("MANIFEST")))
          .as("the CRCs computed while receiving equal the leader's, computed from its files")
          .isEqualTo(Files.readAllBytes(leader.latestDirectory().resolve("MANIFEST")));
    }
  }

  @Test
  void chunksFollowTheFilesInNameOrderAndCarryTheirCrc() {
    Map<String, byte[]> files = new TreeMap<>();
    files.put("x", Transfers.randomBytes(CHUNK_BYTES + 1, 4));
    files.put("y", new byte[0]);
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(leader, 7, 1, files);
      List<Chunk> chunks = Transfers.readAll(leader, meta);
      assertThat(chunks)
          .extracting(Chunk::fileName, Chunk::fileOffset, chunk -> chunk.data().length)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("x", 0L, CHUNK_BYTES),
              org.assertj.core.groups.Tuple.tuple("x", (long) CHUNK_BYTES, 1),
              org.assertj.core.groups.Tuple.tuple("y", 0L, 0));
      for (Chunk chunk : chunks) {
        CRC32C crc = new CRC32C();
        crc.update(chunk.data());
        assertThat(chunk.crc32c()).isEqualTo((int) crc.getValue());
      }
    }
  }

  @Test
  void aSnapshotWithoutFilesIsOneEmptyChunk() {
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES);
        FileSnapshotStore follower = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(leader, 5, 2, Map.of());
      assertThat(meta.chunkCount()).isEqualTo(1);
      Chunk only = leader.readChunk(meta, 0);
      assertThat(only.fileName()).isEmpty();
      assertThat(only.data()).isEmpty();

      Transfers.sendAll(leader, follower, meta);
      assertThat(follower.completeReceive(meta)).isTrue();
      assertThat(follower.latest()).isEqualTo(meta);
      assertThat(Transfers.contents(follower.latestDirectory())).isEmpty();
    }
  }

  @Test
  void aReceivedSnapshotReplacesTheLatestEvenIfOlder() {
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES);
        FileSnapshotStore follower = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      Transfers.take(follower, 20, 2, Map.of("state", new byte[] {1}));
      SnapshotMeta meta = Transfers.take(leader, 10, 1, Map.of("state", new byte[] {2}));
      Transfers.sendAll(leader, follower, meta);
      assertThat(follower.completeReceive(meta)).isTrue();
      assertThat(follower.latest()).isEqualTo(meta);
      assertThat(Transfers.rootEntries(followerRoot)).containsExactly("10-1");
    }
  }

  @Test
  void receivingTheLatestAgainKeepsTheExistingSnapshot() throws Exception {
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES);
        FileSnapshotStore follower = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      SnapshotMeta ours = Transfers.take(follower, 9, 2, Map.of("state", new byte[] {1}));
      // Same index and term, different layout: the same committed state, written differently.
      SnapshotMeta theirs = Transfers.take(leader, 9, 2, Map.of("other", new byte[] {1, 2}));
      Transfers.sendAll(leader, follower, theirs);
      assertThat(follower.completeReceive(theirs)).isTrue();
      assertThat(follower.latest()).isEqualTo(ours);
      assertThat(Transfers.contents(follower.latestDirectory())).containsOnlyKeys("state");
      assertThat(Transfers.rootEntries(followerRoot)).containsExactly("9-2");
    }
  }

  @Test
  void aNewBeginReceiveDiscardsThePreviousOne() {
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES);
        FileSnapshotStore follower = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      SnapshotMeta first = Transfers.take(leader, 3, 1, Map.of("s", new byte[] {1}));
      follower.beginReceive(first);
      assertThat(follower.writeChunk(first, 0, leader.readChunk(first, 0))).isTrue();

      SnapshotMeta second = Transfers.take(leader, 4, 1, Map.of("s", new byte[] {2}));
      Transfers.sendAll(leader, follower, second);
      assertThat(Transfers.rootEntries(followerRoot)).containsExactly("pending-4-1-received");
      assertThat(follower.writeChunk(first, 0, leader.readChunk(second, 0))).isFalse();
      assertThat(follower.completeReceive(first)).isFalse();
      assertThat(follower.completeReceive(second)).isTrue();
      assertThat(follower.latest()).isEqualTo(second);
    }
  }

  @Test
  void anAbortedReceiveLeavesNothingOnDiskAndKeepsTheLatest() {
    try (FileSnapshotStore leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES);
        FileSnapshotStore follower = new FileSnapshotStore(followerRoot, CHUNK_BYTES)) {
      SnapshotMeta installed = Transfers.take(leader, 3, 1, Map.of("s", new byte[] {1}));
      Transfers.sendAll(leader, follower, installed);
      assertThat(follower.completeReceive(installed)).isTrue();
      SnapshotMeta abandoned =
          Transfers.take(leader, 8, 1, Map.of("s", Transfers.randomBytes(3 * CHUNK_BYTES, 9)));
      follower.beginReceive(abandoned);
      assertThat(follower.writeChunk(abandoned, 0, leader.readChunk(abandoned, 0))).isTrue();
      assertThat(follower.isReceiving()).isTrue();

      follower.abortReceive();

      assertThat(follower.isReceiving()).isFalse();
      assertThat(Transfers.rootEntries(followerRoot)).containsExactly("3-1");
      assertThat(follower.writeChunk(abandoned, 1, leader.readChunk(abandoned, 1))).isFalse();
      assertThat(follower.completeReceive(abandoned)).isFalse();
      assertThat(follower.latest()).isEqualTo(installed);
      follower.abortReceive(); // nothing being received: no effect
      assertThat(follower.latest()).isEqualTo(installed);
    }
  }
}
