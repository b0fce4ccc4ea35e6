package io.tern.engine.workflow.model;

import io.tern.engine.workflow.timer.TimerKind;

/** The trigger of a catch event, or the result of a throw event. */
public sealed interface EventDefinition {
  /**
   * An error or an escalation: thrown with a code (static, or FEEL after a leading '=' on a throw
   * event), caught by the innermost boundary event or event subprocess on the way up whose code
   * matches, or that has no code and so catches every code of its kind. Nothing subscribes to it.
   */
  sealed interface Thrown extends EventDefinition {
    /** The code, or null for a catch-all catch event. */
    String code();
  }

  /**
   * An error: thrown by an error end event or a job, caught by an interrupting catch event; an
   * uncaught one raises an incident.
   *
   * @param errorCode the code, or null for a catch-all boundary event
   */
  record Error(String errorCode) implements Thrown {
    @Override
    public String code() {
      return errorCode;
    }
  }

  /**
   * An escalation: thrown by an escalation intermediate throw or end event, caught by a boundary
   * event of a subprocess or call activity or by an event subprocess, interrupting or not; an
   * uncaught one changes nothing (the thrower goes on).
   *
   * @param escalationCode the code, or null for a catch-all catch event
   */
  record Escalation(String escalationCode) implements Thrown {
    @Override
    public String code() {
      return escalationCode;
    }
  }

  /**
   * A timer.
   *
   * @param expression as written in the BPMN file: ISO 8601 text, or FEEL after a leading '='
   */
  record Timer(TimerKind kind, String expression) implements EventDefinition {}

  /**
   * A message: its name and correlation key, each static text or FEEL after a leading '='
   * (correlation keys usually are: {@code =orderId}).
   */
  record Message(String name, String correlationKey) implements EventDefinition {}

  /**
   * A terminate end event: reaching it terminates everything else in its scope, which then
   * completes.
   */
  record Terminate() implements EventDefinition {}

  /**
   * A signal, caught by name or broadcast by a throw event. A process's start event has a static
   * name (its subscription opens at deployment); other events' names may be FEEL after a leading
   * '=', evaluated when the element is entered.
   */
  record Signal(String name) implements EventDefinition {}

  /**
   * A link: a throw event goes on at the catch event of the same name in the same scope.
   *
   * @param catchEventId for a throw event, the id of the catch event it goes on at; null for a
   *     catch event
   */
  record Link(String name, String catchEventId) implements EventDefinition {}

  /**
   * Compensation. On a boundary event it ties its activity to the activity's compensation handler
   * (nothing subscribes to it); a throw event compensates the activities of its scope that
   * completed, and waits for their handlers.
   *
   * @param activityRef for a throw event, the one activity to compensate (null: all); null for a
   *     boundary event
   */
  record Compensation(String activityRef) implements EventDefinition {}

  /** Whether an element entered waits for this event: not for a thrown or compensation one. */
  static boolean isSubscribed(EventDefinition event) {
    return !(event instanceof Thrown) && !(event instanceof Compensation);
  }
}
