package io.tern.engine.workflow.state;

/** Column family ids of the workflow engine's state (ids below 16 are the platform's). */
final class StateIds {
  static final short PROCESSES = 16;
  static final short PROCESS_BY_ID_AND_VERSION = 17;
  static final short PROCESS_LATEST_VERSION = 18;
  static final short ELEMENT_INSTANCES = 19;
  static final short JOBS = 20;
  static final short ACTIVATABLE_JOBS = 21;
  static final short VARIABLES = 22;
  static final short JOB_DEADLINES = 23;
  static final short JOB_BACKOFFS = 24;
  static final short INCIDENTS = 25;
  static final short JOB_INCIDENTS = 26;
  static final short TAKEN_FLOWS = 27;
  static final short CHILDREN = 28;
  static final short ELEMENT_INCIDENTS = 29;
  static final short TIMERS = 30;
  static final short TIMER_DUE_DATES = 31;
  static final short TIMERS_BY_ELEMENT = 32;
  static final short PENDING_BOUNDARY_EVENTS = 33;
  static final short MESSAGES = 34;
  static final short MESSAGES_BY_NAME_AND_KEY = 35;
  static final short MESSAGE_DEADLINES = 36;
  static final short MESSAGE_IDS = 37;
  static final short MESSAGE_CORRELATED_PROCESSES = 38;
  static final short MESSAGE_SUBSCRIPTIONS = 39;
  static final short MESSAGE_SUBSCRIPTIONS_CORRELATING = 40;
  static final short PROCESS_MESSAGE_SUBSCRIPTIONS = 41;
  static final short PROCESS_MESSAGE_SUBSCRIPTIONS_PENDING = 42;
  static final short DEPLOYMENTS_TO_DISTRIBUTE = 43;
  static final short PENDING_DISTRIBUTIONS = 44;
  static final short MESSAGE_START_SUBSCRIPTIONS = 45;
  static final short MESSAGE_START_HELD_KEYS = 46;
  static final short MESSAGE_STARTED_INSTANCES = 47;
  static final short VARIABLE_SCOPES = 48;
  static final short TAKEN_FLOW_SCOPES = 49;
  static final short DECISION_REQUIREMENTS = 50;
  static final short DECISION_REQUIREMENTS_LATEST = 51;
  static final short DECISIONS = 52;
  static final short DECISION_BY_ID_AND_VERSION = 53;
  static final short DECISION_LATEST_VERSION = 54;
  static final short INSTANCE_START_EVENTS = 55;
  static final short SIGNAL_SUBSCRIPTIONS = 56;
  static final short SIGNAL_SUBSCRIPTIONS_BY_ELEMENT = 57;
  static final short SIGNAL_START_SUBSCRIPTIONS = 58;
  static final short SIGNALS_TO_DISTRIBUTE = 59;
  static final short PENDING_SIGNAL_DISTRIBUTIONS = 60;
  static final short RECEIVED_SIGNALS = 61;
  static final short DELETED_PROCESSES = 62;
  static final short PROCESS_LATEST_LIVE_VERSION = 63;
  static final short DELETIONS_TO_DISTRIBUTE = 64;
  static final short PENDING_DELETION_DISTRIBUTIONS = 65;
  static final short DECISION_REQUIREMENTS_HIGHEST_VERSION = 66;
  static final short DECISION_HIGHEST_VERSION = 67;
  static final short MODIFICATION_ACTIVATIONS = 68;
  static final short COMPENSATION_SUBSCRIPTIONS = 69;
  static final short COMPENSATION_SUBSCRIPTIONS_BY_SCOPE = 70;
  static final short PROCESS_MESSAGE_SUBSCRIPTIONS_TAKEN = 71;
  static final short USER_TASKS = 72;
  static final short USER_TASKS_BY_ELEMENT = 73;
  static final short PENDING_MESSAGE_CORRELATIONS = 74;

  // 75: the last backup checkpoint (io.tern.engine.backup.CheckpointState), taken here so that
  // no workflow column family reuses it.

  private StateIds() {}
}
