package io.tern.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

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

  private static S3BackupStore.Config multipart(String bucket, String compression) {
    S3BackupStore.Config base = config(bucket, compression);
    return new S3BackupStore.Config(
        base.bucketName(),
        base.endpoint(),
        base.region(),
        base.accessKey(),
        base.secretKey(),
        base.basePath(),
        base.forcePathStyleAccess(),
        base.compression(),
        base.apiCallTimeout(),
        S3BackupStore.Config.MIN_PART,
        S3BackupStore.Config.MIN_PART);
  }

  /**
   * The SDK's client with its calls counted by name, and a failure thrown instead of sending the
   * part numbered {@code failingPart} (0: none). The builder-taking forms run on the proxy, so
   * every call reaches the handler with its request.
   */
  private static UnaryOperator<S3Client> recording(List<String> calls, int failingPart) {
    return real ->
        (S3Client)
            Proxy.newProxyInstance(
                S3Client.class.getClassLoader(),
                new Class<?>[] {S3Client.class},
                (proxy, method, args) -> {
                  if (args != null && args[0] instanceof Consumer<?>) {
                    // The builder-taking form: it builds the request and calls the proxy again.
                    return InvocationHandler.invokeDefault(proxy, method, args);
                  }
                  if (!method.getName().equals("close")) {
                    calls.add(method.getName());
                  }
                  if (args != null
                      && args[0] instanceof UploadPartRequest part
                      && part.partNumber() == failingPart) {
                    throw SdkClientException.create("the connection broke (injected)");
                  }
                  try {
                    return method.invoke(real, args);
                  } catch (InvocationTargetException e) {
                    throw e.getCause();
                  }
                });
  }

  /** Over 12 MiB of random bytes: three parts of 5 MiB, the last shorter. */
  private Path largeFile() throws IOException {
    byte[] content = new byte[(12 << 20) + 12_345];
    new Random(51).nextBytes(content);
    return Files.write(temp.resolve("raft-7.log"), content);
  }

  @Test
  void aFileAboveTheThresholdGoesUpInPartsAndComesBackByteForByte() throws Exception {
    String bucket = newBucket();
    Path file = largeFile();
    List<String> calls = new CopyOnWriteArrayList<>();
    // gzip too: random bytes do not shrink, and the object's metadata must survive the parts.
    try (S3BackupStore plain = new S3BackupStore(multipart(bucket, "none"), recording(calls, 0));
        S3BackupStore gzip = new S3BackupStore(multipart(bucket, "gzip"), recording(calls, 0))) {
      plain.upload(1, 1, "journal/raft-7.log", file);
      assertThat(calls)
          .containsExactly(
              "createMultipartUpload",
              "uploadPart",
              "uploadPart",
              "uploadPart",
              "completeMultipartUpload");
      calls.clear();
      gzip.upload(1, 2, "journal/raft-7.log", file);
      assertThat(calls).filteredOn("uploadPart"::equals).hasSize(3);

      for (int partition = 1; partition <= 2; partition++) {
        Path restored = temp.resolve("restored-" + partition);
        plain.download(1, partition, "journal/raft-7.log", restored);
        assertThat(restored).hasSameBinaryContentAs(file);
      }
      // A file at the threshold is one PUT.
      Path small =
          Files.write(temp.resolve("small"), new byte[(int) S3BackupStore.Config.MIN_PART]);
      calls.clear();
      plain.upload(1, 1, "journal/small", small);
      assertThat(calls).containsExactly("putObject");
    }
  }

  @Test
  void aFailedPartAbortsTheUploadAndLeavesNoPartsBehind() throws Exception {
    String bucket = newBucket();
    Path file = largeFile();
    List<String> calls = new CopyOnWriteArrayList<>();
    try (S3BackupStore store = new S3BackupStore(multipart(bucket, "none"), recording(calls, 2))) {
      assertThatThrownBy(() -> store.upload(1, 1, "journal/raft-7.log", file))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("cluster-a/1/1/files/journal/raft-7.log (part 2)")
          .hasMessageContaining("the connection broke");
    }
    assertThat(calls)
        .containsExactly(
            "createMultipartUpload", "uploadPart", "uploadPart", "abortMultipartUpload");
    assertThat(blobs.listMultipartUploads(bucket)).isEmpty();
    assertThat(blobs.list(bucket, ListContainerOptions.Builder.recursive())).isEmpty();
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
    S3BackupStore.Config base = config("b", "none");
    assertThatThrownBy(
            () ->
                new S3BackupStore.Config(
                    "b",
                    endpoint(),
                    null,
                    ACCESS,
                    SECRET,
                    "",
                    true,
                    "none",
                    null,
                    64 << 20,
                    1 << 20))
        .hasMessageContaining("data.backup.s3.multipartPartSize must be from 5MB to 5GB")
        .hasMessageContaining("got 1048576 bytes");
    assertThatThrownBy(
            () ->
                new S3BackupStore.Config(
                    "b",
                    endpoint(),
                    null,
                    ACCESS,
                    SECRET,
                    "",
                    true,
                    "none",
                    null,
                    6L << 30,
                    64 << 20))
        .hasMessageContaining("data.backup.s3.multipartThreshold must be from 5MB to 5GB");
    assertThat(base.multipartThreshold()).isEqualTo(128L << 20);
    assertThat(base.multipartPartSize()).isEqualTo(64L << 20);
  }
}
