package io.tern.engine.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Identifiers beyond the limit are refused naming the field; error messages are cut. */
class RequestTextsTest {
  private static final class Answered implements StreamObserver<Object> {
    final List<Throwable> errors = new ArrayList<>();

    @Override
    public void onNext(Object value) {}

    @Override
    public void onError(Throwable t) {
      errors.add(t);
    }

    @Override
    public void onCompleted() {}
  }

  @Test
  void anIdentifierOverTheLimitIsRefusedNamingTheFieldAndItsSize() {
    Answered answered = new Answered();
    String fits = "é".repeat(RequestTexts.MAX_ID_BYTES / 2); // 2 bytes each: exactly the limit
    assertThat(RequestTexts.tooLong(answered, "PublishMessage", "the name", fits)).isFalse();
    assertThat(answered.errors).isEmpty();

    assertThat(RequestTexts.tooLong(answered, "PublishMessage", "the name", fits + "x")).isTrue();
    StatusRuntimeException refused = (StatusRuntimeException) answered.errors.get(0);
    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(refused.getStatus().getDescription())
        .contains("PublishMessage: the name is " + (RequestTexts.MAX_ID_BYTES + 1) + " bytes");
  }

  @Test
  void aLongErrorMessageIsCutOnACharacterBoundaryAndSaysSo() {
    assertThat(RequestTexts.cut("short")).isEqualTo("short");
    String stackTrace = "at a.b.C(€)\n".repeat(10_000);

    String cut = RequestTexts.cut(stackTrace);

    byte[] bytes = cut.getBytes(StandardCharsets.UTF_8);
    assertThat(bytes.length).isLessThanOrEqualTo(RequestTexts.MAX_MESSAGE_BYTES);
    assertThat(cut).endsWith("(cut: the message was longer than 32 KiB)");
    assertThat(stackTrace).startsWith(cut.substring(0, cut.indexOf("... (cut")));
    assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo(cut); // no broken character
  }
}
