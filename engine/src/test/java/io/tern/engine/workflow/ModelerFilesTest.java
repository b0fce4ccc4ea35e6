package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** BPMN files as the Camunda Modeler saves them (with diagrams) run from start to end. */
class ModelerFilesTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  private byte[] resource(String name) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/bpmn/" + name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  private static Map<?, ?> variablesOf(JobBatchValue batch, int index) {
    return (Map<?, ?>) JsonDocuments.toJava(batch.jobs.get(index).variables);
  }

  @Test
  void loanApprovalWithAGoodScoreDisbursesEveryTranche() throws IOException {
    TestMember leader = leader();
    deployed(deploy(leader, "loan-approval.bpmn", resource("loan-approval.bpmn")));
    create(
        leader,
        "loan-approval",
        "{\"application\": {\"applicant\": \"a-17\"}, \"tranches\": [100, 250]}");

    JobBatchValue score = activateWhenAvailable(leader, "credit-score", List.of("applicantId"));
    assertThat(variablesOf(score, 0)).isEqualTo(Map.of("applicantId", "a-17"));
    assertThat(new String(score.jobs.get(0).customHeaders))
        .isEqualTo("{\"bureau\":\"acme-credit\"}");
    completeJob(leader, score.jobKeys.get(0), "{\"score\": 742}");

    await(() -> countOf(JobIntent.CREATED) == 3, "one job per tranche");
    JobBatchValue disburse = activate(leader, "disburse", 10, List.of("tranche", "creditScore"));
    assertThat(disburse.jobs).hasSize(2);
    for (int i = 0; i < 2; i++) {
      Map<?, ?> seen = variablesOf(disburse, i);
      assertThat(seen.get("creditScore")).isEqualTo(742L);
      completeJob(
          leader, disburse.jobKeys.get(i), "{\"receipt\": \"r-" + seen.get("tranche") + "\"}");
    }
    await(() -> lifecycle().contains("loan-approval " + COMPLETED), "the loan to be approved");
    assertThat(lifecycle())
        .contains("approved " + COMPLETED)
        .doesNotContain("reviewed " + COMPLETED);
  }

  @Test
  void loanApprovalWithALowScoreGoesToManualReviewAndFraudEndsIt() throws IOException {
    TestMember leader = leader();
    deployed(deploy(leader, "loan-approval.bpmn", resource("loan-approval.bpmn")));
    create(leader, "loan-approval", "{\"application\": {\"applicant\": \"a-1\"}}");
    completeJob(leader, awaitJob(leader, "credit-score"), "{\"score\": 512}");
    completeJob(leader, awaitJob(leader, "manual-review"));
    await(() -> lifecycle().contains("reviewed " + COMPLETED), "the manual review path");

    create(leader, "loan-approval", "{\"application\": {\"applicant\": \"a-2\"}}");
    throwError(leader, awaitJob(leader, "credit-score"), "FRAUD", "stolen identity", "");
    await(() -> lifecycle().contains("rejected-fraud " + COMPLETED), "the fraud path");
  }

  @Test
  void orderFulfilmentStartsOnAMessageAndJoinsPickingAndPayment() throws IOException {
    TestMember leader = leader();
    deployed(deploy(leader, "order-fulfilment.bpmn", resource("order-fulfilment.bpmn")));
    publish(
        leader,
        "order-placed",
        "o-9",
        0,
        "",
        "{\"orderId\": \"o-9\", \"items\": [\"pen\", \"ink\", \"paper\"]}");

    completeJob(leader, awaitJob(leader, "pick"));
    assertThat(activate(leader, "ship", 1).jobs).as("payment is still missing").isEmpty();
    publish(leader, "payment-received", "o-9", 60_000, "", "{\"paid\": true}");

    JobBatchValue ship = activateWhenAvailable(leader, "ship", List.of("picked", "paid"));
    assertThat(variablesOf(ship, 0)).isEqualTo(Map.of("picked", 3L, "paid", true));
    assertThat(new String(ship.jobs.get(0).customHeaders))
        .isEqualTo("{\"carrier\":\"fast-parcel\"}");
    completeJob(leader, ship.jobKeys.get(0));
    await(() -> lifecycle().contains("order-fulfilment " + COMPLETED), "the order to complete");
    assertThat(lifecycle()).containsSubsequence("join " + COMPLETED, "shipping " + COMPLETED);
  }

  @Test
  void aDeclinedCardUndoesTheBookingsOfTheCompletedSubprocess() throws IOException {
    TestMember leader = leader();
    deployed(deploy(leader, "trip-booking.bpmn", resource("trip-booking.bpmn")));
    create(leader, "trip-booking");
    completeJob(leader, awaitJob(leader, "book-hotel"), "{\"hotelBooking\": \"H-3\"}");
    completeJob(leader, awaitJob(leader, "book-flight"));
    throwError(leader, awaitJob(leader, "charge-card"), "card-declined", "declined", "{}");

    JobBatchValue hotel = activateWhenAvailable(leader, "cancel-hotel", List.of("booking"));
    assertThat(variablesOf(hotel, 0)).isEqualTo(Map.of("booking", "H-3"));
    completeJob(leader, hotel.jobKeys.get(0));
    completeJob(leader, awaitJob(leader, "cancel-flight"));
    await(() -> lifecycle().contains("trip-booking " + COMPLETED), "the trip to end");
    assertThat(lifecycle())
        .contains("undo-bookings " + COMPLETED, "trip-failed " + COMPLETED)
        .doesNotContain("trip-booked " + COMPLETED);
  }
}
