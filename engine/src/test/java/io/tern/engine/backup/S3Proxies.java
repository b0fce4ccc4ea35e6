package io.tern.engine.backup;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 API server for tests: s3proxy on jclouds' in-memory blob store, on a free loopback
 * port, checking AWS signatures made with {@link #ACCESS} and {@link #SECRET}.
 */
public final class S3Proxies implements AutoCloseable {
  public static final String ACCESS = "tern-access";
  public static final String SECRET = "tern-secret-key";
  private static final AtomicInteger BUCKETS = new AtomicInteger();

  private final S3Proxy proxy;
  private final BlobStore blobs;

  private S3Proxies(S3Proxy proxy, BlobStore blobs) {
    this.proxy = proxy;
    this.blobs = blobs;
  }

  public static S3Proxies start() throws Exception {
    BlobStore blobs =
        ContextBuilder.newBuilder("transient")
            .credentials("identity", "credential")
            .build(BlobStoreContext.class)
            .getBlobStore();
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(blobs)
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS, SECRET)
            .endpoint(URI.create("http://127.0.0.1:0"))
            .build();
    proxy.start();
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> proxy.getState().equals("STARTED"));
    return new S3Proxies(proxy, blobs);
  }

  public String endpoint() {
    return "http://127.0.0.1:" + proxy.getPort();
  }

  /** A new empty bucket: tests do not see each other's backups. */
  public String newBucket() {
    String bucket = "tern-backups-" + BUCKETS.incrementAndGet();
    blobs.createContainerInLocation(null, bucket);
    return bucket;
  }

  public BlobStore blobs() {
    return blobs;
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
  }
}
