package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RequestBody;
import io.vertx.ext.web.RoutingContext;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One REST request and its answer: the JSON body and path keys it carries, and the {@link
 * StreamObserver} through which the gateway's shared request handlers answer it (their response
 * becomes a JSON body, their gRPC error a problem document). Answers once; may be answered from any
 * thread: a unary answer is turned into JSON on the request's event loop, not on the thread that
 * completed it (a partition's processor, whose time is the partition's throughput).
 */
final class Exchange {
  private final RoutingContext context;
  private final Context eventLoop;
  private final AtomicBoolean answered = new AtomicBoolean();
  private ObjectNode body;

  /** Made on the request's event loop. */
  Exchange(RoutingContext context) {
    this.context = context;
    this.eventLoop = context.vertx().getOrCreateContext();
  }

  /** The request's JSON body ({} for none); a 400 when it is not a JSON object. */
  ObjectNode body() {
    if (body == null) {
      RequestBody requestBody = context.body();
      body =
          Json.object(
              requestBody == null || !requestBody.available()
                  ? null
                  : requestBody.buffer().getBytes());
    }
    return body;
  }

  /** Runs {@code task} on the request's event loop: now if there, else as its next task. */
  private void onEventLoop(Runnable task) {
    if (Vertx.currentContext() == eventLoop) {
      task.run();
    } else {
      eventLoop.runOnContext(ignored -> task.run());
    }
  }

  /** The key in path parameter {@code name}. */
  long pathKey(String name) {
    return Json.key(name, context.pathParam(name));
  }

  RoutingContext context() {
    return context;
  }

  void json(int status, JsonNode document) {
    if (answered.compareAndSet(false, true)) {
      byte[] bytes;
      try {
        bytes = Json.MAPPER.writeValueAsBytes(document);
      } catch (JsonProcessingException e) {
        Problems.send(context, Problems.of(e));
        return;
      }
      context
          .response()
          .setStatusCode(status)
          .putHeader("content-type", "application/json")
          .end(Buffer.buffer(bytes));
    }
  }

  void noContent() {
    if (answered.compareAndSet(false, true)) {
      context.response().setStatusCode(204).end();
    }
  }

  void fail(Throwable error) {
    if (answered.compareAndSet(false, true)) {
      Problems.send(context, Problems.of(error));
    }
  }

  /** Answers 200 with {@code toJson} of the handler's one response. */
  <T> StreamObserver<T> reply(Function<T, JsonNode> toJson) {
    return new Unary<>(response -> json(200, toJson.apply(response)));
  }

  /** Answers 204 once the handler responded. */
  <T> StreamObserver<T> noContentReply() {
    return new Unary<>(response -> noContent());
  }

  /** Answers with what {@code then} does with the handler's response (a second command, say). */
  <T> StreamObserver<T> then(java.util.function.Consumer<T> then) {
    return new Unary<>(then);
  }

  /** A unary call's observer: its response is handed on, its error answered as a problem. */
  private final class Unary<T> implements StreamObserver<T> {
    private final java.util.function.Consumer<T> onResponse;

    Unary(java.util.function.Consumer<T> onResponse) {
      this.onResponse = onResponse;
    }

    @Override
    public void onNext(T response) {
      onEventLoop(
          () -> {
            try {
              onResponse.accept(response);
            } catch (RuntimeException e) {
              fail(e);
            }
          });
    }

    @Override
    public void onError(Throwable error) {
      onEventLoop(() -> fail(error));
    }

    @Override
    public void onCompleted() {
      // answered in onNext
    }
  }

  /**
   * A streaming call's observer that gathers every response and answers once the call completes
   * (ActivateJobs sends one response per partition that had jobs). A client that goes away cancels
   * the call, as a cancelled gRPC call does.
   */
  <T> ServerCallStreamObserver<T> gather(
      java.util.function.BiConsumer<T, ObjectNode> add, ObjectNode document) {
    return new Gathering<>(add, document);
  }

  private final class Gathering<T> extends ServerCallStreamObserver<T> {
    private final java.util.function.BiConsumer<T, ObjectNode> add;
    private final ObjectNode document;
    private volatile boolean cancelled;

    Gathering(java.util.function.BiConsumer<T, ObjectNode> add, ObjectNode document) {
      this.add = add;
      this.document = document;
    }

    @Override
    public synchronized void onNext(T response) {
      add.accept(response, document);
    }

    @Override
    public void onError(Throwable error) {
      fail(error);
    }

    @Override
    public synchronized void onCompleted() {
      json(200, document);
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public void setOnCancelHandler(Runnable onCancel) {
      context
          .response()
          .closeHandler(
              closed -> {
                if (!answered.get()) {
                  cancelled = true;
                  onCancel.run();
                }
              });
    }

    @Override
    public void setCompression(String compression) {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setOnReadyHandler(Runnable onReady) {}

    @Override
    public void request(int count) {}

    @Override
    public void setMessageCompression(boolean enable) {}

    @Override
    public void disableAutoInboundFlowControl() {}
  }
}
