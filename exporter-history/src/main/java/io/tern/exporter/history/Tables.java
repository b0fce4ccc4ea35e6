package io.tern.exporter.history;

import static io.tern.exporter.history.Column.Merge.CURRENT;
import static io.tern.exporter.history.Column.Merge.FIRST;
import static io.tern.exporter.history.Column.Merge.KEY;
import static io.tern.exporter.history.Column.Merge.LAST;
import static io.tern.exporter.history.Column.SqlType.BIGINT;
import static io.tern.exporter.history.Column.SqlType.BOOLEAN;
import static io.tern.exporter.history.Column.SqlType.INTEGER;
import static io.tern.exporter.history.Column.SqlType.LIST_TEXT;
import static io.tern.exporter.history.Column.SqlType.LONG_TEXT;
import static io.tern.exporter.history.Column.SqlType.PREFIX_TEXT;
import static io.tern.exporter.history.Column.SqlType.SHORT_TEXT;
import static io.tern.exporter.history.Column.SqlType.TIMESTAMP;

import java.util.List;

/**
 * The tables the exporter writes, column by column, as created by {@code
 * db/history/V1__history_schema.sql} and {@code V2__user_tasks.sql}. The counters {@code
 * process_instance.incident_count} and {@code element_instance.incident} are not here: the writer
 * recounts them from {@code incident}.
 */
final class Tables {
  private Tables() {}

  enum ProcessDefinition implements Column {
    PROCESS_DEFINITION_KEY(BIGINT, KEY),
    BPMN_PROCESS_ID(SHORT_TEXT, LAST),
    VERSION(INTEGER, LAST),
    VERSION_TAG(SHORT_TEXT, LAST),
    RESOURCE_NAME(SHORT_TEXT, LAST),
    DEPLOYMENT_KEY(BIGINT, LAST),
    DEPLOYED_AT(TIMESTAMP, LAST),
    PARTITION_ID(INTEGER, LAST),
    POSITION(BIGINT, Merge.POSITION);

    private final SqlType type;
    private final Merge merge;

    ProcessDefinition(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  enum ProcessInstance implements Column {
    PROCESS_INSTANCE_KEY(BIGINT, KEY),
    PROCESS_DEFINITION_KEY(BIGINT, LAST),
    BPMN_PROCESS_ID(SHORT_TEXT, LAST),
    VERSION(INTEGER, LAST),
    STATE(SHORT_TEXT, LAST),
    START_DATE(TIMESTAMP, FIRST),
    END_DATE(TIMESTAMP, LAST),
    PARENT_PROCESS_INSTANCE_KEY(BIGINT, LAST),
    PARENT_ELEMENT_INSTANCE_KEY(BIGINT, LAST),
    PARTITION_ID(INTEGER, LAST),
    POSITION(BIGINT, Merge.POSITION);

    private final SqlType type;
    private final Merge merge;

    ProcessInstance(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  enum ElementInstance implements Column {
    ELEMENT_INSTANCE_KEY(BIGINT, KEY),
    PROCESS_INSTANCE_KEY(BIGINT, LAST),
    PROCESS_DEFINITION_KEY(BIGINT, LAST),
    BPMN_PROCESS_ID(SHORT_TEXT, LAST),
    ELEMENT_ID(SHORT_TEXT, LAST),
    ELEMENT_TYPE(SHORT_TEXT, LAST),
    FLOW_SCOPE_KEY(BIGINT, LAST),
    STATE(SHORT_TEXT, LAST),
    START_DATE(TIMESTAMP, FIRST),
    END_DATE(TIMESTAMP, LAST),
    PARTITION_ID(INTEGER, LAST),
    POSITION(BIGINT, Merge.POSITION);

    private final SqlType type;
    private final Merge merge;

    ElementInstance(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  enum Variable implements Column {
    SCOPE_KEY(BIGINT, KEY),
    NAME(SHORT_TEXT, KEY),
    VARIABLE_KEY(BIGINT, FIRST),
    PROCESS_INSTANCE_KEY(BIGINT, LAST),
    PROCESS_DEFINITION_KEY(BIGINT, LAST),
    VALUE_JSON(LONG_TEXT, LAST),
    VALUE_PREFIX(PREFIX_TEXT, LAST),
    VALUE_TRUNCATED(BOOLEAN, LAST),
    CREATED_AT(TIMESTAMP, FIRST),
    UPDATED_AT(TIMESTAMP, LAST),
    PARTITION_ID(INTEGER, LAST),
    POSITION(BIGINT, Merge.POSITION);

    private final SqlType type;
    private final Merge merge;

    Variable(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  enum VariableHistory implements Column {
    PARTITION_ID(INTEGER, KEY),
    POSITION(BIGINT, KEY),
    VARIABLE_KEY(BIGINT, LAST),
    SCOPE_KEY(BIGINT, LAST),
    NAME(SHORT_TEXT, LAST),
    PROCESS_INSTANCE_KEY(BIGINT, LAST),
    INTENT(SHORT_TEXT, LAST),
    VALUE_JSON(LONG_TEXT, LAST),
    CHANGED_AT(TIMESTAMP, LAST);

    private final SqlType type;
    private final Merge merge;

    VariableHistory(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  enum Job implements Column {
    JOB_KEY(BIGINT, KEY),
    TYPE(SHORT_TEXT, LAST),
    WORKER(SHORT_TEXT, LAST),
    STATE(SHORT_TEXT, LAST),
    RETRIES(INTEGER, LAST),
    PROCESS_INSTANCE_KEY(BIGINT, LAST),
    ELEMENT_INSTANCE_KEY(BIGINT, LAST),
    PROCESS_DEFINITION_KEY(BIGINT, LAST),
    BPMN_PROCESS_ID(SHORT_TEXT, LAST),
    ELEMENT_ID(SHORT_TEXT, LAST),
    ERROR_CODE(SHORT_TEXT, LAST),
    ERROR_MESSAGE(LONG_TEXT, LAST),
    DEADLINE(TIMESTAMP, LAST),
    CREATED_AT(TIMESTAMP, FIRST),
    ENDED_AT(TIMESTAMP, LAST),
    PARTITION_ID(INTEGER, LAST),
    POSITION(BIGINT, Merge.POSITION);

    private final SqlType type;
    private final Merge merge;

    Job(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  enum Incident implements Column {
    INCIDENT_KEY(BIGINT, KEY),
    ERROR_TYPE(SHORT_TEXT, LAST),
    ERROR_MESSAGE(LONG_TEXT, LAST),
    STATE(SHORT_TEXT, LAST),
    PROCESS_INSTANCE_KEY(BIGINT, LAST),
    ELEMENT_INSTANCE_KEY(BIGINT, LAST),
    PROCESS_DEFINITION_KEY(BIGINT, LAST),
    BPMN_PROCESS_ID(SHORT_TEXT, LAST),
    ELEMENT_ID(SHORT_TEXT, LAST),
    JOB_KEY(BIGINT, LAST),
    CREATED_AT(TIMESTAMP, FIRST),
    RESOLVED_AT(TIMESTAMP, LAST),
    PARTITION_ID(INTEGER, LAST),
    POSITION(BIGINT, Merge.POSITION);

    private final SqlType type;
    private final Merge merge;

    Incident(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  /**
   * A Camunda user task. Every USER_TASK event carries the whole task, so what a person can change
   * or remove (assignee, candidates, dates, priority) takes the newest record's value, null too.
   */
  enum UserTask implements Column {
    USER_TASK_KEY(BIGINT, KEY),
    STATE(SHORT_TEXT, LAST),
    ASSIGNEE(SHORT_TEXT, CURRENT),
    CANDIDATE_GROUPS(LIST_TEXT, CURRENT),
    CANDIDATE_USERS(LIST_TEXT, CURRENT),
    DUE_DATE(TIMESTAMP, CURRENT),
    FOLLOW_UP_DATE(TIMESTAMP, CURRENT),
    PRIORITY(INTEGER, CURRENT),
    FORM_KEY(BIGINT, LAST),
    EXTERNAL_FORM_REFERENCE(SHORT_TEXT, LAST),
    CUSTOM_HEADERS(LONG_TEXT, LAST),
    ELEMENT_ID(SHORT_TEXT, LAST),
    ELEMENT_INSTANCE_KEY(BIGINT, LAST),
    PROCESS_INSTANCE_KEY(BIGINT, LAST),
    PROCESS_DEFINITION_KEY(BIGINT, LAST),
    BPMN_PROCESS_ID(SHORT_TEXT, LAST),
    PROCESS_DEFINITION_VERSION(INTEGER, LAST),
    TENANT_ID(SHORT_TEXT, LAST),
    CREATION_DATE(TIMESTAMP, FIRST),
    COMPLETION_DATE(TIMESTAMP, LAST),
    PARTITION_ID(INTEGER, LAST),
    POSITION(BIGINT, Merge.POSITION);

    private final SqlType type;
    private final Merge merge;

    UserTask(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  /** Per partition, the position of the last record whose rows are stored. */
  enum ExporterPosition implements Column {
    PARTITION_ID(INTEGER, KEY),
    POSITION(BIGINT, Merge.POSITION),
    UPDATED_AT(TIMESTAMP, LAST);

    private final SqlType type;
    private final Merge merge;

    ExporterPosition(SqlType type, Merge merge) {
      this.type = type;
      this.merge = merge;
    }

    @Override
    public SqlType type() {
      return type;
    }

    @Override
    public Merge merge() {
      return merge;
    }
  }

  static final Table<ExporterPosition> EXPORTER_POSITIONS =
      Table.versioned("exporter_position", ExporterPosition.class);
  static final Table<ProcessDefinition> PROCESS_DEFINITIONS =
      Table.insertOnly("process_definition", ProcessDefinition.class);
  static final Table<ProcessInstance> PROCESS_INSTANCES =
      Table.versioned("process_instance", ProcessInstance.class);
  static final Table<ElementInstance> ELEMENT_INSTANCES =
      Table.versioned("element_instance", ElementInstance.class);
  static final Table<Variable> VARIABLES = Table.versioned("variable", Variable.class);
  static final Table<VariableHistory> VARIABLE_HISTORY =
      Table.insertOnly("variable_history", VariableHistory.class);
  static final Table<Job> JOBS = Table.versioned("job", Job.class);
  static final Table<Incident> INCIDENTS = Table.versioned("incident", Incident.class);
  static final Table<UserTask> USER_TASKS = Table.versioned("user_task", UserTask.class);

  /**
   * The order a flush writes them in: parents before what refers to them, incidents last (the
   * writer then recounts them onto instances and elements written in the same transaction).
   */
  static final List<Table<?>> WRITE_ORDER =
      List.of(
          PROCESS_DEFINITIONS,
          PROCESS_INSTANCES,
          ELEMENT_INSTANCES,
          VARIABLES,
          VARIABLE_HISTORY,
          JOBS,
          USER_TASKS,
          INCIDENTS);
}
