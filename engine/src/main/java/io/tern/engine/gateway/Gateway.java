package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyResponse;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.gateway.auth.GatewayAuthentication;
import io.tern.engine.tls.GatewayTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The gRPC server of Zeebe's gateway API, in front of the partitions. */
public final class Gateway implements AutoCloseable {
  private final Server server;
  private final GatewayService service;
  private final GatewayJobStreams jobStreams;
  private final GatewayTls.Server tls;

  private Gateway(
      Server server, GatewayService service, GatewayJobStreams jobStreams, GatewayTls.Server tls) {
    this.server = server;
    this.service = service;
    this.jobStreams = jobStreams;
    this.tls = tls;
  }

  /**
   * Starts serving on {@code config}'s address, behind its authentication ({@code registry} gets
   * the authentication's metrics).
   */
  public static Gateway start(
      GatewayConfig config,
      PartitionCommands partitions,
      GatewayJobStreams jobStreams,
      JobStreamForwarder forwarder,
      Supplier<TopologyResponse> topology,
      MeterRegistry registry) {
    GatewayService service =
        new GatewayService(partitions, config, jobStreams, forwarder, topology);
    ServerServiceDefinition guarded;
    try {
      guarded =
          GatewayAuthentication.guard(service, config.authentication(), registry, config.host());
    } catch (RuntimeException e) {
      service.close();
      throw e;
    }
    GatewayTls.Server tls = config.tls() == null ? null : config.tls().start();
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new InetSocketAddress(config.host(), config.port()))
            .maxInboundMessageSize(config.maxMessageBytes())
            .addService(ServerInterceptors.intercept(guarded, new RequestTimer(registry)));
    if (tls != null) {
      builder.sslContext(tls.context());
    }
    Server server = builder.build();
    try {
      server.start();
    } catch (IOException e) {
      if (tls != null) {
        tls.close();
      }
      throw new UncheckedIOException(
          "cannot start the gateway on " + config.host() + ":" + config.port(), e);
    }
    return new Gateway(server, service, jobStreams, tls);
  }

  /** Its job streams and parked ActivateJobs requests. */
  public GatewayJobStreams jobStreams() {
    return jobStreams;
  }

  /** The port it listens on (the configured one, or the one chosen for port 0). */
  public int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    server.shutdown();
    try {
      if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
        server.shutdownNow();
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
    service.close();
    if (tls != null) {
      tls.close();
    }
  }
}
