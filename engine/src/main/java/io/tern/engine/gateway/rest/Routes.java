package io.tern.engine.gateway.rest;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tern.engine.gateway.auth.BearerTokenInterceptor;
import io.tern.engine.gateway.auth.TokenRefusal;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.PlatformHandler;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The REST API's route table. Each route is timed ({@code tern.gateway.rest.request.latency} by
 * route and HTTP status, like the gRPC port's {@code tern.gateway.request.latency}), then its
 * bearer token checked (when the gateway asks for one: a refused request is answered 401 before its
 * body is read, so nothing of it is written), then its body read up to the gateway's message limit,
 * then handed to its handler. What a handler throws ({@link Problems.InvalidRequest}, a gRPC
 * status) is answered as a problem document.
 */
final class Routes {
  static final String LATENCY = "tern.gateway.rest.request.latency";

  /** A route's work, given the request; it answers through the exchange, now or later. */
  interface Handler {
    void handle(Exchange exchange);
  }

  private final Router router;
  private final BearerTokenInterceptor authentication;
  private final BodyHandler bodies;
  private final MeterRegistry registry;
  private final ConcurrentHashMap<String, Timer> timers = new ConcurrentHashMap<>();

  Routes(
      Router router,
      BearerTokenInterceptor authentication,
      int maxBodyBytes,
      MeterRegistry registry) {
    this.router = router;
    this.authentication = authentication;
    this.bodies = BodyHandler.create(false).setBodyLimit(maxBodyBytes);
    this.registry = registry;
  }

  /** {@code path} as Camunda's OpenAPI document writes it, e.g. /v2/jobs/{jobKey}/completion. */
  void json(HttpMethod method, String path, Handler handler) {
    Route route = router.route(method, vertxPath(path));
    guard(route, method + " " + path);
    route.handler(bodies);
    route.handler(context -> run(context, handler));
  }

  /** A route that reads its body itself (a multipart upload). */
  void streaming(HttpMethod method, String path, Handler handler) {
    Route route = router.route(method, vertxPath(path));
    guard(route, method + " " + path);
    route.handler(context -> run(context, handler));
  }

  /** Whatever no route took: a 404 problem (timed as route "unmatched"). */
  void unmatched() {
    Route route = router.route();
    guard(route, "unmatched");
    route.handler(
        context ->
            Problems.send(
                context,
                new Problems.Problem(
                    404,
                    "NOT_FOUND",
                    "Tern does not serve "
                        + context.request().method()
                        + " "
                        + context.request().path()
                        + " (docs/broker.md#the-rest-api lists what it serves)")));
    router
        .route()
        .failureHandler(
            context -> {
              int status = context.statusCode();
              if (context.failure() != null) {
                Problems.send(context, Problems.of(context.failure()));
              } else if (status == 413) {
                Problems.send(
                    context,
                    new Problems.Problem(
                        413,
                        "PAYLOAD_TOO_LARGE",
                        "the request is larger than gateway.maxMessageSize"));
              } else {
                Problems.send(
                    context,
                    new Problems.Problem(
                        status < 400 ? 500 : status, "INVALID_REQUEST", "the request failed"));
              }
            });
  }

  private void guard(Route route, String name) {
    route.handler(new Guard(name));
  }

  /**
   * Times the request and checks its token. A platform handler: Vert.x runs those before the body
   * handler, so that a refused request's body is never read.
   */
  private final class Guard implements PlatformHandler {
    private final String name;

    Guard(String name) {
      this.name = name;
    }

    @Override
    public void handle(RoutingContext context) {
      long start = System.nanoTime();
      // Recorded as the answer's head is written, so before the client can have it.
      context.addHeadersEndHandler(
          written ->
              timer(name, context.response().getStatusCode())
                  .record(System.nanoTime() - start, TimeUnit.NANOSECONDS));
      if (authentication != null) {
        TokenRefusal refusal = authentication.check(context.request().getHeader("authorization"));
        if (refusal != null) {
          boolean retry = BearerTokenInterceptor.keysUnavailable(refusal);
          Problems.send(
              context,
              new Problems.Problem(
                  retry ? 503 : 401,
                  retry ? "UNAVAILABLE" : "UNAUTHENTICATED",
                  refusal.getMessage()));
          return;
        }
      }
      context.next();
    }
  }

  private static void run(RoutingContext context, Handler handler) {
    Exchange exchange = new Exchange(context);
    try {
      handler.handle(exchange);
    } catch (RuntimeException e) {
      exchange.fail(e);
    }
  }

  private Timer timer(String route, int status) {
    return timers.computeIfAbsent(
        route + " " + status,
        key ->
            Timer.builder(LATENCY)
                .description("a REST request, from its arrival to its answer")
                .tag("route", route)
                .tag("status", Integer.toString(status))
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry));
  }

  /** /v2/jobs/{jobKey} -> /v2/jobs/:jobKey */
  private static String vertxPath(String path) {
    return path.replaceAll("\\{([A-Za-z]+)}", ":$1");
  }
}
