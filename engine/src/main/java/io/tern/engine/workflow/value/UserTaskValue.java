package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.UserTaskValueDecoder;
import io.tern.engine.record.sbe.UserTaskValueEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A Camunda user task ({@code zeebe:userTask}): the element instance it belongs to, whom it is for
 * (assignee, candidates), when (due and follow-up date, ISO 8601, empty for none), its priority and
 * form, and, in a command and its events, what was asked: the attributes an update changes, the
 * variables a completion carries, the action a task list names.
 */
public final class UserTaskValue extends MappedValue<UserTaskValue> {
  /** The names Zeebe gives the attributes an update changes ({@code changedAttributes}). */
  public static final String CANDIDATE_GROUPS = "candidateGroupsList";

  public static final String CANDIDATE_USERS = "candidateUsersList";
  public static final String DUE_DATE = "dueDate";
  public static final String FOLLOW_UP_DATE = "followUpDate";
  public static final String PRIORITY = "priority";

  /** Zeebe's default priority, and the range a priority must be in. */
  public static final int DEFAULT_PRIORITY = 50;

  public static final int MAX_PRIORITY = 100;

  private static final ValueFields<UserTaskValue> FIELDS =
      ValueFields.of(UserTaskValue.class, UserTaskValueEncoder.class, UserTaskValueDecoder.class)
          .int64(
              "elementInstanceKey", v -> v.elementInstanceKey, (v, x) -> v.elementInstanceKey = x)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .int32(
              "processDefinitionVersion",
              v -> v.processDefinitionVersion,
              (v, x) -> v.processDefinitionVersion = x)
          .int32("priority", v -> v.priority, (v, x) -> v.priority = x)
          .int64("formKey", v -> v.formKey, (v, x) -> v.formKey = x)
          .int64("creationTimestamp", v -> v.creationTimestamp, (v, x) -> v.creationTimestamp = x)
          .group("candidateGroups", group -> group.string("group", v -> v.candidateGroups))
          .group("candidateUsers", user -> user.string("user", v -> v.candidateUsers))
          .group("changedAttributes", attribute -> attribute.string("attribute", v -> v.changed))
          .string("assignee", v -> v.assignee, (v, x) -> v.assignee = x)
          .string("dueDate", v -> v.dueDate, (v, x) -> v.dueDate = x)
          .string("followUpDate", v -> v.followUpDate, (v, x) -> v.followUpDate = x)
          .string(
              "externalFormReference",
              v -> v.externalFormReference,
              (v, x) -> v.externalFormReference = x)
          .string("action", v -> v.action, (v, x) -> v.action = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .string("elementId", v -> v.elementId, (v, x) -> v.elementId = x)
          .bytes("customHeaders", v -> v.customHeaders, (v, x) -> v.customHeaders = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .build();

  public long elementInstanceKey = -1;
  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public int processDefinitionVersion;
  public int priority = DEFAULT_PRIORITY;

  /** A deployed (linked) form's key; Tern has no form resources, so always -1. */
  public long formKey = -1;

  public long creationTimestamp = -1;
  public final List<String> candidateGroups = new ArrayList<>();
  public final List<String> candidateUsers = new ArrayList<>();

  /** UPDATE: the attributes to change (by Zeebe's names); UPDATED: those changed. */
  public final List<String> changed = new ArrayList<>();

  /** Empty: nobody. */
  public String assignee = "";

  public String dueDate = "";
  public String followUpDate = "";

  /**
   * The form a task list shows, outside the engine ({@code formKey} or {@code externalReference}).
   */
  public String externalFormReference = "";

  /** What a task list says it did (Zeebe's defaults: "assign", "claim", "update", "complete"). */
  public String action = "";

  public String bpmnProcessId = "";
  public String elementId = "";
  public byte[] customHeaders = "{}".getBytes(StandardCharsets.UTF_8);

  /** COMPLETE and COMPLETING: the variables the completion sets (a JSON object); else empty. */
  public byte[] variables = new byte[0];

  public UserTaskValue() {
    super(FIELDS);
  }
}
