package io.tern.engine.backup;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Backups in an S3-compatible bucket (AWS S3, GCS through its S3 interoperability, MinIO), through
 * the AWS SDK v2: {@code <basePath>/<backupId>/<partitionId>/manifest.json} and {@code
 * .../files/<name>}. With compression {@code gzip}, files are gzipped on the way up (marked so in
 * the object's metadata, so a restore decompresses whatever the restoring broker's setting is);
 * manifests never are, so that an operator can read them in the bucket's console.
 *
 * <p>A file larger than {@code multipartThreshold} goes up as a multipart upload in parts of {@code
 * multipartPartSize} (more if the file would need over 10,000 parts), each read from the file when
 * sent: a single PUT takes at most 5 GB, and a failed part is retried alone. An upload that fails
 * is aborted, so that the bucket keeps no orphaned parts (which S3 bills until aborted). Downloads
 * stream to the target file.
 *
 * <p>The SDK's default request checksums are asked for only where S3 requires them: GCS and older
 * MinIO releases refuse the trailing checksums the SDK sends by default since 2.30.
 */
public final class S3BackupStore implements BackupStore {
  private static final String MANIFEST = "manifest.json";
  private static final String COMPRESSION_KEY = "tern-compression";
  private static final String GZIP = "gzip";
  private static final long MAX_PARTS = 10_000;
  private static final Logger LOG = LoggerFactory.getLogger(S3BackupStore.class);

  /**
   * The settings under {@code data.backup.s3}. Secret key null or blank with access key blank: the
   * SDK's default credentials chain (environment, profile, instance or pod role).
   */
  public record Config(
      String bucketName,
      String endpoint,
      String region,
      String accessKey,
      String secretKey,
      String basePath,
      boolean forcePathStyleAccess,
      String compression,
      Duration apiCallTimeout,
      long multipartThreshold,
      long multipartPartSize) {
    /** S3's smallest part (but the last) and largest part or single PUT. */
    static final long MIN_PART = 5L << 20;

    static final long MAX_PUT = 5L << 30;

    public static final long DEFAULT_MULTIPART_THRESHOLD = 128L << 20;
    public static final long DEFAULT_MULTIPART_PART_SIZE = 64L << 20;

    /** With the default multipart sizes. */
    public Config(
        String bucketName,
        String endpoint,
        String region,
        String accessKey,
        String secretKey,
        String basePath,
        boolean forcePathStyleAccess,
        String compression,
        Duration apiCallTimeout) {
      this(
          bucketName,
          endpoint,
          region,
          accessKey,
          secretKey,
          basePath,
          forcePathStyleAccess,
          compression,
          apiCallTimeout,
          DEFAULT_MULTIPART_THRESHOLD,
          DEFAULT_MULTIPART_PART_SIZE);
    }

    public Config {
      // S3 refuses a part under 5 MiB (but the last) and a part or a single PUT over 5 GiB.
      if (multipartPartSize < MIN_PART || multipartPartSize > MAX_PUT) {
        throw new IllegalArgumentException(
            "data.backup.s3.multipartPartSize must be from 5MB to 5GB (S3's limits for a part),"
                + " got "
                + multipartPartSize
                + " bytes");
      }
      if (multipartThreshold < MIN_PART || multipartThreshold > MAX_PUT) {
        throw new IllegalArgumentException(
            "data.backup.s3.multipartThreshold must be from 5MB to 5GB (a single PUT takes at"
                + " most 5GB), got "
                + multipartThreshold
                + " bytes");
      }
      if (bucketName == null || bucketName.isBlank()) {
        throw new IllegalArgumentException(
            "data.backup.s3.bucketName must name a bucket when data.backup.store is s3");
      }
      compression = compression == null || compression.isBlank() ? "none" : compression;
      if (!compression.equals("none") && !compression.equals(GZIP)) {
        throw new IllegalArgumentException(
            "data.backup.s3.compression must be none or gzip, got '" + compression + "'");
      }
      if ((accessKey == null || accessKey.isBlank())
          != (secretKey == null || secretKey.isBlank())) {
        throw new IllegalArgumentException(
            "data.backup.s3.accessKey and data.backup.s3.secretKey go together: set both, or"
                + " neither to use the default credentials chain");
      }
      basePath = basePath == null ? "" : basePath.replaceAll("^/+|/+$", "");
    }

    /** Never the secret key: this may be logged. */
    @Override
    public String toString() {
      return "s3://"
          + bucketName
          + "/"
          + basePath
          + (endpoint == null || endpoint.isBlank() ? "" : " at " + endpoint);
    }
  }

  private final Config config;
  private final S3Client client;

  public S3BackupStore(Config config) {
    this(config, UnaryOperator.identity());
  }

  /** With the SDK's client wrapped by {@code decorate}: tests inject failures so. */
  S3BackupStore(Config config, UnaryOperator<S3Client> decorate) {
    this.config = config;
    AwsCredentialsProvider credentials =
        config.accessKey() == null || config.accessKey().isBlank()
            ? DefaultCredentialsProvider.builder().build()
            : StaticCredentialsProvider.create(
                AwsBasicCredentials.create(config.accessKey(), config.secretKey()));
    var builder =
        S3Client.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .credentialsProvider(credentials)
            .forcePathStyle(config.forcePathStyleAccess())
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .overrideConfiguration(
                override -> {
                  if (config.apiCallTimeout() != null) {
                    override.apiCallTimeout(config.apiCallTimeout());
                  }
                });
    if (config.region() != null && !config.region().isBlank()) {
      builder.region(Region.of(config.region()));
    } else {
      builder.region(Region.US_EAST_1); // S3-compatible stores ignore it; the SDK needs one
    }
    if (config.endpoint() != null && !config.endpoint().isBlank()) {
      builder.endpointOverride(URI.create(config.endpoint()));
    }
    this.client = decorate.apply(builder.build());
  }

  private String prefix() {
    return config.basePath().isEmpty() ? "" : config.basePath() + "/";
  }

  private String partKey(long backupId, int partitionId) {
    return prefix() + backupId + "/" + partitionId + "/";
  }

  private String fileKey(long backupId, int partitionId, String name) {
    if (name.isBlank() || name.startsWith("/") || name.contains("..")) {
      throw new IllegalArgumentException("a backup file name must stay in its part: " + name);
    }
    return partKey(backupId, partitionId) + "files/" + name;
  }

  @Override
  public void saveManifest(BackupManifest manifest) throws IOException {
    String key = partKey(manifest.backupId(), manifest.partitionId()) + MANIFEST;
    call(
        key,
        () ->
            client.putObject(
                put -> put.bucket(config.bucketName()).key(key).contentType("application/json"),
                RequestBody.fromBytes(manifest.toJson())));
  }

  @Override
  public Optional<BackupManifest> manifest(long backupId, int partitionId) throws IOException {
    String key = partKey(backupId, partitionId) + MANIFEST;
    try {
      byte[] json =
          call(
              key,
              () ->
                  client
                      .getObjectAsBytes(get -> get.bucket(config.bucketName()).key(key))
                      .asByteArray());
      return Optional.of(BackupManifest.fromJson(json, where(key)));
    } catch (NoSuchKey e) {
      return Optional.empty();
    }
  }

  @Override
  public List<BackupManifest> manifests(long backupId) throws IOException {
    return manifestsUnder(prefix() + backupId + "/");
  }

  @Override
  public List<BackupManifest> list() throws IOException {
    return manifestsUnder(prefix());
  }

  private List<BackupManifest> manifestsUnder(String keyPrefix) throws IOException {
    List<BackupManifest> found = new ArrayList<>();
    for (S3Object object : objectsUnder(keyPrefix)) {
      String rest = object.key().substring(prefix().length());
      // <backupId>/<partitionId>/manifest.json, nothing deeper (a file may be named so too)
      if (rest.matches("\\d{1,18}/\\d{1,9}/" + MANIFEST)) {
        String[] parts = rest.split("/");
        manifest(Long.parseLong(parts[0]), Integer.parseInt(parts[1])).ifPresent(found::add);
      }
    }
    found.sort(
        Comparator.comparingLong(BackupManifest::backupId)
            .thenComparingInt(BackupManifest::partitionId));
    return found;
  }

  private List<S3Object> objectsUnder(String keyPrefix) throws IOException {
    List<S3Object> objects = new ArrayList<>();
    String token = null;
    do {
      String continuation = token;
      ListObjectsV2Response page =
          call(
              keyPrefix,
              () ->
                  client.listObjectsV2(
                      ListObjectsV2Request.builder()
                          .bucket(config.bucketName())
                          .prefix(keyPrefix)
                          .continuationToken(continuation)
                          .build()));
      objects.addAll(page.contents());
      token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
    } while (token != null);
    return objects;
  }

  @Override
  public void upload(long backupId, int partitionId, String name, Path file) throws IOException {
    String key = fileKey(backupId, partitionId, name);
    if (!config.compression().equals(GZIP)) {
      put(key, file, Map.of());
      return;
    }
    // Compressed to a file first: S3's PUT wants the length before the body.
    Path compressed = Files.createTempFile(file.getParent(), file.getFileName() + "-", ".gz");
    try {
      try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(compressed), 1 << 16)) {
        Files.copy(file, out);
      }
      put(key, compressed, Map.of(COMPRESSION_KEY, GZIP));
    } finally {
      Files.deleteIfExists(compressed);
    }
  }

  private void put(String key, Path file, Map<String, String> metadata) throws IOException {
    long size = Files.size(file);
    if (size > config.multipartThreshold()) {
      putInParts(key, file, size, metadata);
      return;
    }
    call(
        key,
        () ->
            client.putObject(
                put -> put.bucket(config.bucketName()).key(key).metadata(metadata),
                RequestBody.fromFile(file)));
  }

  /** A multipart upload of {@code file}: created, its parts sent in order, then completed. */
  private void putInParts(String key, Path file, long size, Map<String, String> metadata)
      throws IOException {
    // S3 takes at most 10,000 parts: a file that would need more gets larger parts.
    long partSize = Math.max(config.multipartPartSize(), (size + MAX_PARTS - 1) / MAX_PARTS);
    String uploadId =
        call(
                key,
                () ->
                    client.createMultipartUpload(
                        create -> create.bucket(config.bucketName()).key(key).metadata(metadata)))
            .uploadId();
    try {
      List<CompletedPart> parts = new ArrayList<>();
      for (int number = 1; (number - 1) * partSize < size; number++) {
        int partNumber = number;
        long offset = (number - 1) * partSize;
        long length = Math.min(partSize, size - offset);
        try (FileSlices slice = new FileSlices(file, offset, length)) {
          UploadPartResponse sent =
              call(
                  key + " (part " + partNumber + ")",
                  () ->
                      client.uploadPart(
                          part ->
                              part.bucket(config.bucketName())
                                  .key(key)
                                  .uploadId(uploadId)
                                  .partNumber(partNumber)
                                  .contentLength(length),
                          RequestBody.fromContentProvider(
                              slice, length, "application/octet-stream")));
          parts.add(CompletedPart.builder().partNumber(partNumber).eTag(sent.eTag()).build());
        }
      }
      call(
          key,
          () ->
              client.completeMultipartUpload(
                  complete ->
                      complete
                          .bucket(config.bucketName())
                          .key(key)
                          .uploadId(uploadId)
                          .multipartUpload(upload -> upload.parts(parts))));
    } catch (IOException | RuntimeException e) {
      try {
        call(
            key,
            () ->
                client.abortMultipartUpload(
                    abort -> abort.bucket(config.bucketName()).key(key).uploadId(uploadId)));
      } catch (IOException | RuntimeException again) {
        e.addSuppressed(again);
        LOG.warn(
            "The failed multipart upload {} of {} could not be aborted: its parts stay in the"
                + " bucket until a lifecycle rule for incomplete multipart uploads removes them",
            uploadId,
            where(key),
            again);
      }
      throw e;
    }
  }

  /**
   * The bytes {@code [offset, offset + length)} of a file, as a new stream each time the SDK asks
   * (it asks again to retry a part); the last one opened is closed with this.
   */
  private static final class FileSlices implements ContentStreamProvider, AutoCloseable {
    private final Path file;
    private final long offset;
    private final long length;
    private InputStream open;

    FileSlices(Path file, long offset, long length) {
      this.file = file;
      this.offset = offset;
      this.length = length;
    }

    @Override
    public InputStream newStream() {
      close();
      try {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        open = bounded(Channels.newInputStream(channel.position(offset)), length);
        return open;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static InputStream bounded(InputStream in, long length) {
      return new FilterInputStream(in) {
        private long left = length;

        @Override
        public int read() throws IOException {
          if (left <= 0) {
            return -1;
          }
          int read = super.read();
          if (read >= 0) {
            left--;
          }
          return read;
        }

        @Override
        public int read(byte[] buffer, int from, int count) throws IOException {
          if (left <= 0) {
            return -1;
          }
          int read = super.read(buffer, from, (int) Math.min(count, left));
          if (read > 0) {
            left -= read;
          }
          return read;
        }

        @Override
        public long skip(long count) throws IOException {
          long skipped = super.skip(Math.min(count, left));
          left -= skipped;
          return skipped;
        }

        @Override
        public int available() throws IOException {
          return (int) Math.min(super.available(), left);
        }

        @Override
        public boolean markSupported() {
          return false;
        }
      };
    }

    @Override
    public void close() {
      if (open != null) {
        try {
          open.close();
        } catch (IOException e) {
          // A read-only file: nothing is lost.
        }
        open = null;
      }
    }
  }

  @Override
  public void download(long backupId, int partitionId, String name, Path target)
      throws IOException {
    String key = fileKey(backupId, partitionId, name);
    try (ResponseInputStream<GetObjectResponse> object =
        call(key, () -> client.getObject(get -> get.bucket(config.bucketName()).key(key)))) {
      boolean gzipped = GZIP.equals(object.response().metadata().get(COMPRESSION_KEY));
      try (InputStream in = gzipped ? new GZIPInputStream(object, 1 << 16) : object) {
        Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (NoSuchKey e) {
      throw new IOException(
          where(key) + " is missing: backup " + backupId + " lacks a file its manifest lists");
    }
  }

  @Override
  public void delete(long backupId) throws IOException {
    String keyPrefix = prefix() + backupId + "/";
    List<String> keys = new ArrayList<>();
    for (S3Object object : objectsUnder(keyPrefix)) {
      keys.add(object.key());
    }
    // The manifests first: a delete cut short leaves no part that claims files it lacks. One
    // request per object: GCS's S3 interoperability has no multi-object delete.
    keys.sort(Comparator.comparing((String key) -> !key.endsWith("/" + MANIFEST)));
    for (String key : keys) {
      call(key, () -> client.deleteObject(delete -> delete.bucket(config.bucketName()).key(key)));
    }
  }

  private String where(String key) {
    return "s3://" + config.bucketName() + "/" + key;
  }

  /** Not found, told apart from other failures. */
  private static final class NoSuchKey extends IOException {
    private static final long serialVersionUID = 1L;

    NoSuchKey(String message) {
      super(message);
    }
  }

  private interface Call<T> {
    T run();
  }

  /** Runs an SDK call; its failures become IOExceptions naming the object. */
  private <T> T call(String key, Call<T> call) throws IOException {
    try {
      return call.run();
    } catch (NoSuchKeyException e) {
      throw new NoSuchKey(where(key) + " does not exist");
    } catch (SdkException e) {
      throw new IOException(
          "S3 call on " + where(key) + " failed (" + config + "): " + e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return config.toString();
  }

  @Override
  public void close() {
    client.close();
  }
}
