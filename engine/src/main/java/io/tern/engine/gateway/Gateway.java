package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyResponse;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyServerBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.gateway.auth.BearerTokenInterceptor;
import io.tern.engine.gateway.auth.GatewayAuthentication;
import io.tern.engine.gateway.history.HistoryReader;
import io.tern.engine.gateway.rest.RestGateway;
import io.tern.engine.tls.GatewayTls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The gRPC server of Zeebe's gateway API, in front of the partitions, and (once {@link #startRest}
 * is called) Camunda's REST API over the same request handlers.
 */
public final class Gateway implements AutoCloseable {
  private final Server server;
  private final GatewayService service;
  private final GatewayJobStreams jobStreams;
  private final GatewayTls.Server tls;
  private final GatewayConfig config;
  private final Supplier<TopologyResponse> topology;
  private final BearerTokenInterceptor authentication;
  private volatile RestGateway rest;
  private volatile HistoryReader history;

  private Gateway(
      Server server,
      GatewayService service,
      GatewayJobStreams jobStreams,
      GatewayTls.Server tls,
      GatewayConfig config,
      Supplier<TopologyResponse> topology,
      BearerTokenInterceptor authentication) {
    this.server = server;
    this.service = service;
    this.jobStreams = jobStreams;
    this.tls = tls;
    this.config = config;
    this.topology = topology;
    this.authentication = authentication;
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
    BearerTokenInterceptor authentication;
    try {
      authentication =
          GatewayAuthentication.interceptor(config.authentication(), registry, config.host());
    } catch (RuntimeException e) {
      service.close();
      throw e;
    }
    ServerServiceDefinition guarded = GatewayAuthentication.guard(service, authentication);
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
    return new Gateway(server, service, jobStreams, tls, config, topology, authentication);
  }

  /**
   * Starts the REST API on {@code config.rest()}'s address, over the same handlers, TLS and token
   * check as the gRPC port; nothing when it is not enabled. A port that cannot be bound throws.
   *
   * @param history the history store its searches read, or null: they are refused then
   */
  public void startRest(MeterRegistry registry, HistoryReader.Location history) {
    if (config.rest().enabled()) {
      HistoryReader reader = history == null ? null : new HistoryReader(history, registry);
      try {
        rest = startRest(registry, reader);
      } catch (RuntimeException e) {
        if (reader != null) {
          reader.close();
        }
        throw e;
      }
      this.history = reader;
    }
  }

  private RestGateway startRest(MeterRegistry registry, HistoryReader history) {
    return RestGateway.start(
        config.rest().host(),
        config.rest().port(),
        service,
        service.userTasks(),
        service,
        topology,
        config.tls(),
        tls,
        authentication,
        config.maxMessageBytes(),
        history,
        registry);
  }

  /** The REST API's port, or -1 when it is not served. */
  public int restPort() {
    RestGateway started = rest;
    return started == null ? -1 : started.port();
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
    RestGateway started = rest;
    if (started != null) {
      started.close();
    }
    HistoryReader reader = history;
    if (reader != null) {
      reader.close();
    }
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
