-- Camunda user tasks (zeebe:userTask), from USER_TASK records (docs/history.md). Same rules as V1:
-- SQL both H2 and PostgreSQL run, and a position per row so that only newer records change it.

CREATE TABLE user_task (
  user_task_key BIGINT NOT NULL PRIMARY KEY,
  -- CREATED (waiting for a person), COMPLETED or CANCELED.
  state VARCHAR(255),
  assignee VARCHAR(255),
  -- The candidates as a JSON array of strings in which a quote inside a name is written \u0022:
  -- a raw quote then only ever delimits a name, so LIKE '%"name"%' finds exactly that name.
  -- Names that do not fit are left out (the list ends before the first one that would not).
  candidate_groups VARCHAR(4000),
  candidate_users VARCHAR(4000),
  due_date TIMESTAMP WITH TIME ZONE,
  follow_up_date TIMESTAMP WITH TIME ZONE,
  priority INTEGER,
  form_key BIGINT,
  external_form_reference VARCHAR(255),
  -- A JSON object of the task's headers, written as the candidates are.
  custom_headers TEXT,
  element_id VARCHAR(255),
  element_instance_key BIGINT,
  process_instance_key BIGINT,
  process_definition_key BIGINT,
  bpmn_process_id VARCHAR(255),
  process_definition_version INTEGER,
  tenant_id VARCHAR(255),
  creation_date TIMESTAMP WITH TIME ZONE,
  -- Completed or canceled.
  completion_date TIMESTAMP WITH TIME ZONE,
  partition_id INTEGER NOT NULL,
  position BIGINT NOT NULL
);
-- An instance's tasks (and retention, which deletes them with the instance).
CREATE INDEX user_task_process_instance ON user_task (process_instance_key);
-- The task of an element instance.
CREATE INDEX user_task_element_instance ON user_task (element_instance_key);
-- Open (or done) tasks, newest or oldest first.
CREATE INDEX user_task_state ON user_task (state, creation_date);
-- A person's tasks, open or done.
CREATE INDEX user_task_assignee ON user_task (assignee, state);
-- The tasks of a BPMN element.
CREATE INDEX user_task_element_id ON user_task (element_id, state);
-- Tasks due (or to follow up) in a range.
CREATE INDEX user_task_due_date ON user_task (due_date);
CREATE INDEX user_task_follow_up_date ON user_task (follow_up_date);
