package io.tern.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.jclouds.blobstore.BlobStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The S3 store against a real S3 API server (s3proxy on jclouds' in-memory blob store), signed with
 * an access and a secret key as in production: the SDK's requests, not a mock of them.
 */
class S3BackupStoreTest extends BackupStoreContract {
  static final String ACCESS = S3Proxies.ACCESS;
  static final String SECRET = S3Proxies.SECRET;
  private static S3Proxies proxy;
  private static BlobStore blobs;
  private S3BackupStore store;

  @BeforeAll
  static void startS3() throws Exception {
    proxy = S3Proxies.start();
    blobs = proxy.blobs();
  }

  @AfterAll
  static void stopS3() throws Exception {
    proxy.close();
  }

  static String endpoint() {
    return proxy.endpoint();
  }

  static String newBucket() {
    return proxy.newBucket();
  }

  static S3BackupStore.Config config(String bucket, String compression) {
    return new S3BackupStore.Config(
        bucket,
        endpoint(),
        "eu-west-1",
        ACCESS,
        SECRET,
        "/cluster-a/",
        true,
        compression,
        Duration.ofSeconds(30));
  }

  @Override
  BackupStore store() {
    if (store == null) {
      store = new S3BackupStore(config(newBucket(), "none"));
    }
    return store;
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  @Test
  void gzipsFilesWhenAskedAndRestoresThemWhateverTheSetting() throws Exception {
    String bucket = newBucket();
    byte[] content = new byte[200_000]; // zeros: compresses to almost nothing
    Path file = Files.write(temp.resolve("journal-1.log"), content);
    try (S3BackupStore gzip = new S3BackupStore(config(bucket, "gzip"));
        S3BackupStore plain = new S3BackupStore(config(bucket, "none"))) {
      gzip.upload(1, 1, "journal/journal-1.log", file);
      long stored =
          blobs
              .blobMetadata(bucket, "cluster-a/1/1/files/journal/journal-1.log")
              .getContentMetadata()
              .getContentLength();
      assertThat(stored).isLessThan(content.length / 20);
      Path restored = temp.resolve("restored.log");
      plain.download(1, 1, "journal/journal-1.log", restored);
      assertThat(restored).hasSameBinaryContentAs(file);
    }
  }

  @Test
  void aWrongSecretKeyFailsNamingTheBucketButNotTheSecret() {
    S3BackupStore.Config wrong =
        new S3BackupStore.Config(
            newBucket(), endpoint(), "eu-west-1", ACCESS, "not-the-secret", "", true, "none", null);
    try (S3BackupStore store = new S3BackupStore(wrong)) {
      assertThatThrownBy(() -> store.list())
          .isInstanceOf(IOException.class)
          .hasMessageContaining("s3://" + wrong.bucketName())
          .hasMessageNotContaining("not-the-secret");
    }
  }

  @Test
  void refusesConfigurationsThatCannotWork() {
    assertThatThrownBy(
            () ->
                new S3BackupStore.Config(
                    " ", endpoint(), null, ACCESS, SECRET, "", true, "none", null))
        .hasMessageContaining("data.backup.s3.bucketName");
    assertThatThrownBy(
            () ->
                new S3BackupStore.Config(
                    "b", endpoint(), null, ACCESS, SECRET, "", true, "zstd", null))
        .hasMessageContaining("data.backup.s3.compression");
    assertThatThrownBy(
            () ->
                new S3BackupStore.Config("b", endpoint(), null, ACCESS, "", "", true, "none", null))
        .hasMessageContaining("go together");
  }
}
