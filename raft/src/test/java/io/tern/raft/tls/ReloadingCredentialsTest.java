package io.tern.raft.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslProvider;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Credentials read again when their files change, as cert-manager rotates a Secret in place. */
class ReloadingCredentialsTest {
  @TempDir Path dir;
  private TestPki ca;
  private TestPki.Issued first;
  private ReloadingCredentials credentials;
  private EventLoopGroup group;
  private Channel server;

  @BeforeEach
  void serve() throws Exception {
    ca = new TestPki(dir, "ca");
    first = ca.issue("server", "127.0.0.1");
    credentials =
        ReloadingCredentials.load(
            new PemFile("test.certificateChainPath", first.chain()),
            new PemFile("test.privateKeyPath", first.key()),
            new PemFile("test.trustedCertificatesPath", ca.caCertificate()),
            Duration.ofMillis(50));
    SslContext context = credentials.forServer(ClientAuth.NONE, SslProvider.JDK).build();
    group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    server =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(context.newHandler(ch.alloc()));
                  }
                })
            .bind("127.0.0.1", 0)
            .syncUninterruptibly()
            .channel();
  }

  @AfterEach
  void close() {
    credentials.close();
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** The serial of the certificate a new connection is shown. */
  private BigInteger servedSerial() throws Exception {
    SSLContext client = SSLContext.getInstance("TLS");
    client.init(null, new TrustManager[] {credentials.trustManager()}, null);
    int port = ((InetSocketAddress) server.localAddress()).getPort();
    try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", port)) {
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  @Test
  void aRotatedCertificateIsServedToNewConnectionsWithoutARestart() throws Exception {
    assertThat(servedSerial()).isEqualTo(first.serial());
    TestPki.Issued second = ca.issue("server-renewed", "127.0.0.1");

    TestPki.replace(second.key(), first.key());
    TestPki.replace(second.chain(), first.chain());

    Awaitility.await("the renewed certificate served")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(20))
        .until(this::servedSerial, second.serial()::equals);
  }

  @Test
  void filesThatDoNotLoadKeepThePreviousCertificateUntilGoodOnesArrive() throws Exception {
    TestPki.Issued second = ca.issue("server-renewed", "127.0.0.1");
    // Half a rotation: the new certificate with the old key.
    TestPki.replace(second.chain(), first.chain());
    credentials.checkFiles();
    assertThat(credentials.certificate().getSerialNumber()).isEqualTo(first.serial());
    assertThat(servedSerial()).isEqualTo(first.serial());
    Files.writeString(first.key(), "not a key");
    credentials.checkFiles();
    assertThat(servedSerial()).isEqualTo(first.serial());

    TestPki.replace(second.key(), first.key());
    credentials.checkFiles();
    assertThat(credentials.certificate().getSerialNumber()).isEqualTo(second.serial());
    assertThat(servedSerial()).isEqualTo(second.serial());
  }

  @Test
  void badFilesAtStartNameTheSettingAndTheFileButNeverTheKey() throws Exception {
    TestPki.Issued other = ca.issue("other", "127.0.0.1");
    assertThatThrownBy(() -> load(first.chain(), other.key()))
        .hasMessageContaining("test.privateKeyPath (" + other.key() + ")")
        .hasMessageContaining("does not belong to the first certificate of");
    Path pkcs1 = dir.resolve("rsa.key");
    Files.writeString(
        pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nMIIsecret\n-----END RSA PRIVATE KEY-----\n");
    assertThatThrownBy(() -> load(first.chain(), pkcs1))
        .hasMessageContaining("test.privateKeyPath (" + pkcs1 + ")")
        .hasMessageContaining("PKCS#1")
        .hasMessageNotContaining("MIIsecret");
    assertThatThrownBy(() -> load(dir.resolve("missing.crt"), first.key()))
        .hasMessageContaining("test.certificateChainPath (" + dir.resolve("missing.crt") + ")")
        .hasMessageContaining("cannot read");
    assertThatThrownBy(() -> load(first.key(), first.key()))
        .hasMessageContaining("test.certificateChainPath")
        .hasMessageContaining("certificate");
  }

  private static ReloadingCredentials load(Path chain, Path key) {
    return ReloadingCredentials.load(
        new PemFile("test.certificateChainPath", chain),
        new PemFile("test.privateKeyPath", key),
        null,
        Duration.ZERO);
  }
}
