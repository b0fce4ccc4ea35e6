package io.tern.engine.gateway.rest;

import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.gateway.auth.BearerTokenInterceptor;
import io.tern.engine.gateway.history.HistoryReader;
import io.tern.engine.tls.GatewayTls;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.file.FileSystemOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.TrustOptions;
import io.vertx.ext.web.Router;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Camunda's REST API (/v2) beside the gRPC port, for the commands the 8.8+ client's default builder
 * sends over REST: each route turns its JSON into the gRPC request of the same command and hands it
 * to the gateway's own request handlers, so the broker commands, keys and errors are the gRPC
 * port's. Served by Vert.x on two event loops (the handlers never block: they send a command and
 * answer when its future completes), with the gRPC port's TLS credentials (reloaded with them) and
 * bearer-token check.
 */
public final class RestGateway implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RestGateway.class);
  private static final long START_STOP_SECONDS = 10;

  private final Vertx vertx;
  private final HttpServer server;

  private RestGateway(Vertx vertx, HttpServer server) {
    this.vertx = vertx;
    this.server = server;
  }

  /**
   * Starts listening on {@code host}:{@code port} (0: any free port).
   *
   * @param tls the gRPC port's TLS (its certificate, client certificates and reloading), or null
   * @param tlsCredentials what {@code tls} loaded for the gRPC port, or null
   * @param authentication the gRPC port's token check, or null when none is asked
   * @param maxBodyBytes the largest request body (gateway.maxMessageSize)
   * @param history the history store the searches read, or null: they are then refused
   */
  public static RestGateway start(
      String host,
      int port,
      GatewayGrpc.AsyncService service,
      UserTaskService userTasks,
      MessageCorrelation correlation,
      Supplier<TopologyResponse> topology,
      GatewayTls tls,
      GatewayTls.Server tlsCredentials,
      BearerTokenInterceptor authentication,
      int maxBodyBytes,
      HistoryReader history,
      MeterRegistry registry) {
    Vertx vertx =
        Vertx.vertx(
            new VertxOptions()
                .setEventLoopPoolSize(2)
                .setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1)
                // No .vertx cache directory in the working directory: nothing is served from files.
                .setFileSystemOptions(
                    new FileSystemOptions()
                        .setFileCachingEnabled(false)
                        .setClassPathResolvingEnabled(false)));
    try {
      Router router = Router.router(vertx);
      Routes routes = new Routes(router, authentication, maxBodyBytes, registry);
      TopologyRoutes.register(routes, service, topology);
      DeploymentRoutes.register(routes, service, maxBodyBytes);
      InstanceRoutes.register(routes, service);
      JobRoutes.register(routes, service);
      MessageRoutes.register(routes, service, correlation);
      VariableRoutes.register(routes, service);
      DecisionRoutes.register(routes, service);
      UserTaskRoutes.register(routes, userTasks);
      SearchRoutes.register(routes, history);
      routes.unmatched();
      HttpServer server =
          vertx
              .createHttpServer(options(host, port, tls, tlsCredentials))
              .requestHandler(router)
              .listen()
              .toCompletionStage()
              .toCompletableFuture()
              .get(START_STOP_SECONDS, TimeUnit.SECONDS);
      LOG.info(
          "REST API (/v2) on {}:{}{}", host, server.actualPort(), tls == null ? "" : " with TLS");
      return new RestGateway(vertx, server);
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      vertx.close();
      throw new IllegalStateException(
          "cannot start the REST API on " + host + ":" + port,
          e instanceof ExecutionException ? e.getCause() : e);
    } catch (InterruptedException e) {
      vertx.close();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting the REST API", e);
    }
  }

  private static HttpServerOptions options(
      String host, int port, GatewayTls tls, GatewayTls.Server credentials) {
    HttpServerOptions options = new HttpServerOptions().setHost(host).setPort(port);
    if (tls != null && credentials != null) {
      options
          .setSsl(true)
          .setKeyCertOptions(KeyCertOptions.wrap(credentials.credentials().keyManager()))
          .setEnabledSecureTransportProtocols(Set.of("TLSv1.3", "TLSv1.2"));
      switch (tls.clientAuth()) {
        case OPTIONAL -> options.setClientAuth(ClientAuth.REQUEST);
        case REQUIRE -> options.setClientAuth(ClientAuth.REQUIRED);
        default -> options.setClientAuth(ClientAuth.NONE);
      }
      if (tls.clientAuth() != io.netty.handler.ssl.ClientAuth.NONE) {
        options.setTrustOptions(TrustOptions.wrap(credentials.credentials().trustManager()));
      }
    }
    return options;
  }

  /** The port it listens on (the configured one, or the one chosen for port 0). */
  public int port() {
    return server.actualPort();
  }

  @Override
  public void close() {
    try {
      vertx
          .close()
          .toCompletionStage()
          .toCompletableFuture()
          .get(START_STOP_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      LOG.warn("the REST API did not stop cleanly", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
