package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyResponse;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.gateway.auth.GatewayAuthentication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The gRPC server of Zeebe's gateway API, in front of the partitions. */
public final class Gateway implements AutoCloseable {
  /** Zeebe's default inbound message limit: a deployment or variables up to 4 MiB. */
  private static final int MAX_INBOUND_MESSAGE_BYTES = 4 * 1024 * 1024;

  private final Server server;
  private final GatewayService service;
  private final GatewayJobStreams jobStreams;

  private Gateway(Server server, GatewayService service, GatewayJobStreams jobStreams) {
    this.server = server;
    this.service = service;
    this.jobStreams = jobStreams;
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
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress(config.host(), config.port()))
            .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES)
            .addService(guarded)
            .build();
    try {
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start the gateway on " + config.host() + ":" + config.port(), e);
    }
    return new Gateway(server, service, jobStreams);
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
  }
}
