package io.tern.raft.snapshot;

import static io.tern.raft.snapshot.Transfers.CHUNK_BYTES;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.SnapshotMeta;
import io.tern.raft.SnapshotStore.Chunk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotReceiveValidationTest {
  @TempDir Path leaderRoot;
  @TempDir Path followerRoot;

  private FileSnapshotStore leader;
  private FileSnapshotStore follower;
  private SnapshotMeta meta;
  private List<Chunk> chunks;

  @BeforeEach
  void takeSnapshot() {
    leader = new FileSnapshotStore(leaderRoot, CHUNK_BYTES);
    follower = new FileSnapshotStore(followerRoot, CHUNK_BYTES);
    Map<String, byte[]> files = new TreeMap<>();
    files.put("a", Transfers.randomBytes(2 * CHUNK_BYTES + 3, 1));
    files.put("b", Transfers.randomBytes(10, 2));
    meta = Transfers.take(leader, 12, 2, files);
    chunks = Transfers.readAll(leader, meta);
    follower.beginReceive(meta);
  }

  @AfterEach
  void close() {
    leader.close();
    follower.close();
  }

  @Test
  void aChunkWhoseDataDoesNotMatchItsCrcIsRefused() {
    Chunk good = chunks.get(0);
    byte[] damaged = good.data().clone();
    damaged[100] ^= 1;
    assertThat(follower.writeChunk(meta, 0, new Chunk("a", 0, damaged, good.crc32c()))).isFalse();
    assertThat(follower.receivedBytes()).isZero();
    assertThat(follower.writeChunk(meta, 0, good)).isTrue();
  }

  @Test
  void chunksOutOfOrderAreRefused() {
    assertThat(follower.writeChunk(meta, 1, chunks.get(1))).as("skips chunk 0").isFalse();
    assertThat(follower.writeChunk(meta, 0, chunks.get(0))).isTrue();
    assertThat(follower.writeChunk(meta, 0, chunks.get(0))).as("repeated").isFalse();
    Chunk second = chunks.get(1);
    assertThat(follower.writeChunk(meta, 1, withOffset(second, second.fileOffset() + 1)))
        .as("offset past what was written")
        .isFalse();
    assertThat(follower.writeChunk(meta, 1, withOffset(second, 0)))
        .as("offset before what was written")
        .isFalse();
    assertThat(follower.writeChunk(meta, 1, rename(chunks.get(3), "a"))).isFalse();
    assertThat(follower.receivedBytes()).isEqualTo(CHUNK_BYTES);
    assertThat(follower.writeChunk(meta, 1, second)).isTrue();
  }

  @Test
  void aFileThatSortsBeforeThePreviousOneIsRefused() {
    for (int i = 0; i < 3; i++) {
      assertThat(follower.writeChunk(meta, i, chunks.get(i))).isTrue();
    }
    assertThat(follower.writeChunk(meta, 3, rename(chunks.get(3), "0-before-a"))).isFalse();
    assertThat(follower.writeChunk(meta, 3, rename(chunks.get(3), "b-new"))).isTrue();
  }

  @Test
  void unsafeFileNamesAreRefused() {
    String tooLong = "é".repeat(128); // 256 bytes in UTF-8
    for (String name : List.of("", ".", "..", "MANIFEST", "x/y", "../x", "x\\y", "x\0y", tooLong)) {
      assertThat(follower.writeChunk(meta, 0, rename(chunks.get(0), name))).as(name).isFalse();
    }
    assertThat(Transfers.rootEntries(followerRoot)).containsExactly("pending-12-2-received");
    assertThat(Transfers.contents(followerRoot.resolve("pending-12-2-received"))).isEmpty();
    assertThat(follower.writeChunk(meta, 0, rename(chunks.get(0), "é".repeat(127)))).isTrue();
  }

  @Test
  void chunksOfAnotherSnapshotAreRefused() {
    SnapshotMeta other = new SnapshotMeta(13, 2, meta.checksum(), meta.chunkCount());
    assertThat(follower.writeChunk(other, 0, chunks.get(0))).isFalse();
    assertThat(follower.completeReceive(other)).isFalse();
  }

  @Test
  void aWrongChecksumDiscardsTheReceivedSnapshot() {
    SnapshotMeta older = Transfers.take(follower, 5, 1, Map.of("s", new byte[] {1}));
    SnapshotMeta wrong = new SnapshotMeta(12, 2, meta.checksum() ^ 1, meta.chunkCount());
    follower.beginReceive(wrong);
    for (int i = 0; i < chunks.size(); i++) {
      assertThat(follower.writeChunk(wrong, i, chunks.get(i))).isTrue();
    }
    assertThat(follower.completeReceive(wrong)).isFalse();
    assertThat(follower.latest()).isEqualTo(older);
    assertThat(Transfers.rootEntries(followerRoot)).containsExactly("5-1");
  }

  @Test
  void aChunkAlteredTogetherWithItsCrcFailsTheContentChecksum() {
    Chunk good = chunks.get(0);
    byte[] altered = good.data().clone();
    altered[0] ^= 1;
    CRC32C crc = new CRC32C();
    crc.update(altered);
    Chunk selfConsistent = new Chunk(good.fileName(), 0, altered, (int) crc.getValue());
    assertThat(follower.writeChunk(meta, 0, selfConsistent)).isTrue();
    for (int i = 1; i < chunks.size(); i++) {
      assertThat(follower.writeChunk(meta, i, chunks.get(i))).isTrue();
    }

    assertThat(follower.completeReceive(meta)).isFalse();
    assertThat(follower.latest()).isNull();
    assertThat(Transfers.rootEntries(followerRoot)).isEmpty();
  }

  @Test
  void completingBeforeEveryChunkArrivedFails() {
    assertThat(follower.writeChunk(meta, 0, chunks.get(0))).isTrue();
    assertThat(follower.completeReceive(meta)).isFalse();
    assertThat(follower.latest()).isNull();
    assertThat(Transfers.rootEntries(followerRoot)).isEmpty();
  }

  @Test
  void theEmptyChunkIsOnlyAcceptedForASnapshotWithoutFiles() {
    assertThat(follower.writeChunk(meta, 0, leaderEmptyChunk())).isFalse();
    SnapshotMeta empty = new SnapshotMeta(20, 3, 0, 1);
    follower.beginReceive(empty);
    assertThat(follower.writeChunk(empty, 0, leaderEmptyChunk())).isTrue();
  }

  @Test
  void aFileThatChangedLengthOnTheReceiverIsCaughtByTheChecksum() throws Exception {
    // The receiver checks each chunk's CRC and does not read the files back (see
    // SnapshotReceiver), so what it can catch of a file changed behind its back is the length.
    for (int i = 0; i < chunks.size(); i++) {
      assertThat(follower.writeChunk(meta, i, chunks.get(i))).isTrue();
    }
    Files.write(followerRoot.resolve("pending-12-2-received").resolve("b"), new byte[9]);
    assertThat(follower.completeReceive(meta)).isFalse();
    assertThat(follower.latest()).isNull();
  }

  private static Chunk leaderEmptyChunk() {
    return new Chunk("", 0, new byte[0], 0);
  }

  private static Chunk withOffset(Chunk chunk, long fileOffset) {
    return new Chunk(chunk.fileName(), fileOffset, chunk.data(), chunk.crc32c());
  }

  private static Chunk rename(Chunk chunk, String fileName) {
    CRC32C crc = new CRC32C();
    crc.update(chunk.data());
    return new Chunk(fileName, chunk.fileOffset(), chunk.data(), (int) crc.getValue());
  }
}
