-- The history store's tables (docs/history.md). One script for H2 and PostgreSQL: only types and
-- statements both understand (TEXT is H2's CLOB and PostgreSQL's unbounded text).
--
-- Every table holding an entity that changes (instances, elements, variables, jobs, incidents)
-- keeps the log position of the last record applied to its row ("position"): the exporter's
-- upserts only change a row with a record from further on in the log, so records written twice
-- (a replay after failover, two leaders for a moment) never move a row back.

CREATE TABLE exporter_position (
  partition_id INTEGER NOT NULL PRIMARY KEY,
  position BIGINT NOT NULL,
  updated_at TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE TABLE process_definition (
  process_definition_key BIGINT NOT NULL PRIMARY KEY,
  bpmn_process_id VARCHAR(255) NOT NULL,
  version INTEGER NOT NULL,
  version_tag VARCHAR(255),
  resource_name VARCHAR(255),
  deployment_key BIGINT,
  deployed_at TIMESTAMP WITH TIME ZONE,
  partition_id INTEGER NOT NULL,
  position BIGINT NOT NULL
);
-- The latest version of a process, the definitions of a process id.
CREATE INDEX process_definition_bpmn_process_id ON process_definition (bpmn_process_id, version);

CREATE TABLE process_instance (
  process_instance_key BIGINT NOT NULL PRIMARY KEY,
  process_definition_key BIGINT,
  bpmn_process_id VARCHAR(255),
  version INTEGER,
  state VARCHAR(255),
  start_date TIMESTAMP WITH TIME ZONE,
  end_date TIMESTAMP WITH TIME ZONE,
  parent_process_instance_key BIGINT,
  parent_element_instance_key BIGINT,
  -- Active incidents of the instance's elements (recounted from the incident table on each change).
  incident_count INTEGER DEFAULT 0 NOT NULL,
  partition_id INTEGER NOT NULL,
  position BIGINT NOT NULL
);
-- Search by process id (with state and a start range), by state, by start range.
CREATE INDEX process_instance_bpmn_process_id ON process_instance (bpmn_process_id, state, start_date);
CREATE INDEX process_instance_state ON process_instance (state, start_date);
CREATE INDEX process_instance_start_date ON process_instance (start_date);
CREATE INDEX process_instance_definition ON process_instance (process_definition_key);
-- The instances a call activity started.
CREATE INDEX process_instance_parent ON process_instance (parent_process_instance_key);
-- Retention: a partition's finished instances by end (active ones have none).
CREATE INDEX process_instance_retention ON process_instance (partition_id, end_date);

CREATE TABLE element_instance (
  element_instance_key BIGINT NOT NULL PRIMARY KEY,
  process_instance_key BIGINT NOT NULL,
  process_definition_key BIGINT,
  bpmn_process_id VARCHAR(255),
  element_id VARCHAR(255),
  element_type VARCHAR(255),
  flow_scope_key BIGINT,
  state VARCHAR(255),
  start_date TIMESTAMP WITH TIME ZONE,
  end_date TIMESTAMP WITH TIME ZONE,
  -- An active incident on this element (recounted from the incident table on each change).
  incident BOOLEAN DEFAULT FALSE NOT NULL,
  partition_id INTEGER NOT NULL,
  position BIGINT NOT NULL
);
-- The elements of an instance, in the order they started.
CREATE INDEX element_instance_process_instance ON element_instance (process_instance_key, start_date);

-- One row per variable: its scope (a process or element instance) and name. Tern gives each
-- variable event a key of its own, so the key kept is the creating record's.
CREATE TABLE variable (
  scope_key BIGINT NOT NULL,
  name VARCHAR(255) NOT NULL,
  variable_key BIGINT NOT NULL,
  process_instance_key BIGINT NOT NULL,
  process_definition_key BIGINT,
  -- The value as JSON text ("text" with its quotes, 12, {"a":1}).
  value_json TEXT,
  -- Its first 256 characters (all of it when short), the column a search by value uses.
  value_prefix VARCHAR(256),
  value_truncated BOOLEAN DEFAULT FALSE NOT NULL,
  created_at TIMESTAMP WITH TIME ZONE,
  updated_at TIMESTAMP WITH TIME ZONE,
  partition_id INTEGER NOT NULL,
  position BIGINT NOT NULL,
  PRIMARY KEY (scope_key, name)
);
-- Search instances by a variable's name and value.
CREATE INDEX variable_name_value ON variable (name, value_prefix);
-- The variables of an instance (every scope).
CREATE INDEX variable_process_instance ON variable (process_instance_key);

CREATE TABLE variable_history (
  partition_id INTEGER NOT NULL,
  position BIGINT NOT NULL,
  variable_key BIGINT NOT NULL,
  scope_key BIGINT NOT NULL,
  name VARCHAR(255) NOT NULL,
  process_instance_key BIGINT NOT NULL,
  intent VARCHAR(255) NOT NULL,
  value_json TEXT,
  changed_at TIMESTAMP WITH TIME ZONE,
  PRIMARY KEY (partition_id, position)
);
-- A variable's changes in order, and an instance's (for retention).
CREATE INDEX variable_history_variable ON variable_history (scope_key, name, position);
CREATE INDEX variable_history_process_instance ON variable_history (process_instance_key);

CREATE TABLE job (
  job_key BIGINT NOT NULL PRIMARY KEY,
  type VARCHAR(255),
  worker VARCHAR(255),
  state VARCHAR(255),
  retries INTEGER,
  process_instance_key BIGINT,
  element_instance_key BIGINT,
  process_definition_key BIGINT,
  bpmn_process_id VARCHAR(255),
  element_id VARCHAR(255),
  error_code VARCHAR(255),
  error_message TEXT,
  deadline TIMESTAMP WITH TIME ZONE,
  created_at TIMESTAMP WITH TIME ZONE,
  ended_at TIMESTAMP WITH TIME ZONE,
  partition_id INTEGER NOT NULL,
  position BIGINT NOT NULL
);
CREATE INDEX job_process_instance ON job (process_instance_key);
CREATE INDEX job_type_state ON job (type, state);

CREATE TABLE incident (
  incident_key BIGINT NOT NULL PRIMARY KEY,
  error_type VARCHAR(255),
  error_message TEXT,
  state VARCHAR(255),
  process_instance_key BIGINT,
  element_instance_key BIGINT,
  process_definition_key BIGINT,
  bpmn_process_id VARCHAR(255),
  element_id VARCHAR(255),
  job_key BIGINT,
  created_at TIMESTAMP WITH TIME ZONE,
  resolved_at TIMESTAMP WITH TIME ZONE,
  partition_id INTEGER NOT NULL,
  position BIGINT NOT NULL
);
CREATE INDEX incident_process_instance ON incident (process_instance_key, state);
CREATE INDEX incident_element_instance ON incident (element_instance_key, state);
CREATE INDEX incident_state ON incident (state, created_at);
