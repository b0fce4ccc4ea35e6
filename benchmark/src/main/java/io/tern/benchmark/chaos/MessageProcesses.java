package io.tern.benchmark.chaos;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.builder.AbstractFlowNodeBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The processes of the chaos suite's message mode, one per way a message can be taken: an
 * intermediate catch event, an interrupting boundary event, a non-interrupting boundary event and a
 * message start event. Each takes its own message name, and after taking a message runs a job of
 * its own type ("took") that reads the message's variables: that activation is how the history
 * learns which instance took which message. Names shared by the workload and the checker.
 */
final class MessageProcesses {
  /** The correlation key, as an instance variable: shared by many instances. */
  static final String KEY = "key";

  /** Brought by the message: its message id, unique per publication. */
  static final String MESSAGE_ID = "msgId";

  /** Brought by the message: the correlation key it was published with. */
  static final String MESSAGE_KEY = "msgKey";

  /**
   * The non-interrupting boundary event's record of the messages it took, in order: a list its
   * output mapping appends each message id to (in the step that leaves the event, so no trigger
   * misses another's), read by the "done" job once the timer ended the wait.
   */
  static final String TAKEN = "taken";

  /**
   * The job type of the task the boundary events sit on. No worker takes it: the instance waits
   * there until a message or the timer ends the wait.
   */
  static final String IDLE = "msg-idle";

  /**
   * How long the boundary processes wait at their idle task. The interrupting one ends earlier if a
   * message comes; the non-interrupting one takes messages for this long. Short, so that the settle
   * after the load stays short.
   */
  static final String WAIT_INTERRUPTING = "PT20S";

  static final String WAIT_NON_INTERRUPTING = "PT10S";

  /** The ways a message is taken, each with its process, message name and "took" job type. */
  enum Way {
    CATCH("msg-catch", "intermediate catch event"),
    INTERRUPTING("msg-interrupting", "interrupting boundary event"),
    NON_INTERRUPTING("msg-non-interrupting", "non-interrupting boundary event"),
    START("msg-start", "message start event");

    final String processId;
    final String description;

    Way(String processId, String description) {
      this.processId = processId;
      this.description = description;
    }

    String messageName() {
      return processId + "-message";
    }

    /** The job type of the task that runs after the message was taken. */
    String tookJobType() {
      return processId + "-took";
    }

    /** The job type of the task that reads {@link #TAKEN} after the wait (non-interrupting). */
    String doneJobType() {
      return processId + "-done";
    }

    /** The way whose "took" job has this type, or null. */
    static Way ofTookJobType(String jobType) {
      return Arrays.stream(values())
          .filter(way -> way.tookJobType().equals(jobType))
          .findFirst()
          .orElse(null);
    }

    /** The way whose message has this name, or null. */
    static Way ofMessageName(String name) {
      return Arrays.stream(values())
          .filter(way -> way.messageName().equals(name))
          .findFirst()
          .orElse(null);
    }
  }

  private MessageProcesses() {}

  static byte[] bpmn(Way way) {
    var process = Bpmn.createExecutableProcess(way.processId);
    var model =
        switch (way) {
          case CATCH ->
              took(
                      process
                          .startEvent()
                          .intermediateCatchEvent(
                              "catch",
                              event ->
                                  event.message(
                                      m ->
                                          m.name(way.messageName())
                                              .zeebeCorrelationKeyExpression(KEY))),
                      way)
                  .done();
          case INTERRUPTING, NON_INTERRUPTING -> {
            boolean interrupting = way == Way.INTERRUPTING;
            var waiting = process.startEvent().serviceTask("wait", task -> task.zeebeJobType(IDLE));
            var message =
                waiting
                    .boundaryEvent("message")
                    .cancelActivity(interrupting)
                    .message(m -> m.name(way.messageName()).zeebeCorrelationKeyExpression(KEY));
            if (!interrupting) {
              // With output mappings the message's variables stay local to the event: copy them.
              message
                  .zeebeOutputExpression("append(" + TAKEN + ", " + MESSAGE_ID + ")", TAKEN)
                  .zeebeOutputExpression(MESSAGE_ID, MESSAGE_ID)
                  .zeebeOutputExpression(MESSAGE_KEY, MESSAGE_KEY);
            }
            var timeout =
                took(message, way)
                    .moveToActivity("wait")
                    .boundaryEvent("timeout")
                    .cancelActivity(true)
                    .timerWithDuration(interrupting ? WAIT_INTERRUPTING : WAIT_NON_INTERRUPTING);
            yield (interrupting
                    ? timeout.endEvent("timed-out")
                    : timeout
                        .serviceTask("done", task -> task.zeebeJobType(way.doneJobType()))
                        .endEvent("timed-out"))
                .done();
          }
          case START ->
              took(process.startEvent("start").message(m -> m.name(way.messageName())), way).done();
        };
    return Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8);
  }

  private static AbstractFlowNodeBuilder<?, ?> took(AbstractFlowNodeBuilder<?, ?> from, Way way) {
    return from.serviceTask("took", task -> task.zeebeJobType(way.tookJobType())).endEvent("end");
  }
}
